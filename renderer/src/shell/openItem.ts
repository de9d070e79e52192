// "Open this item": the search box (and later other shell parts) asks a workspace to show one item by id.
// The shell selects the workspace; a workspace that can select items by id calls useOpenRequest and takes the
// request meant for it. Until a workspace does, the search box says it opened the workspace only.
import { useEffect } from 'react';
import type { SearchLink } from '../../../engines/core/contracts/search';

export interface OpenRequest extends SearchLink {
  /** What the item is called, for the note shown when the workspace cannot select it. */
  readonly title: string;
}

type Listener = (r: OpenRequest) => void;

let pending: OpenRequest | null = null;
const listeners = new Set<Listener>();

/**
 * Services whose workspace selects an item from an open request, with the kinds it handles. A workspace adds itself
 * here when it calls useOpenRequest; the search box reads it to say how far it could navigate. Declared here rather
 * than at mount, since the workspaces load lazily and the box must know before the first one mounts.
 */
export const OPENABLE: Readonly<Record<string, readonly string[]>> = {
  // Cases: a case, a story in it (parent: the case), an event in it (parent: the case).
  forensic: ['case', 'story', 'event'],
  // Replay: an analysis, a story, an alert rule in an analysis (parent: the analysis) shown in the Alerts tab.
  replay: ['analysis', 'story', 'alert'],
  // Packages: a scan's verdict (History), a package page (id `ecosystem:name`), a release diff, a project scan
  // (parent: the project), a container scan.
  pkgscan: ['scan', 'package', 'diff', 'project-scan', 'container-scan'],
  // Assessment: a stored assessment (History) or a stored case (the editor).
  caseassess: ['assessment', 'case'],
  // Lineage: a gate run.
  provgate: ['run'],
  // ACH: a stored matrix by its uuid (TAXII report hits, kind `report`, only open the workspace).
  attrib: ['matrix'],
  // Triage: a stored analysis (History), or the newest stored analysis of a SHA-256 (`#/petriage/history/<sha256>`).
  petriage: ['analysis', 'history'],
};

export function canOpen(link: SearchLink): boolean {
  return OPENABLE[link.service]?.includes(link.kind) ?? false;
}

/** Records the request and tells the workspaces listening now; a workspace mounted later takes it on mount. */
export function requestOpen(r: OpenRequest): void {
  pending = r;
  for (const l of listeners) l(r);
}

/** The pending request for `service`, removed once taken. */
export function takeOpenRequest(service: string): OpenRequest | null {
  if (pending?.service !== service) return null;
  const r = pending;
  pending = null;
  return r;
}

/** For a workspace: calls `handler` with each request meant for `service` (one pending from before it mounted first). */
export function useOpenRequest(service: string, handler: (r: OpenRequest) => void): void {
  useEffect(() => {
    const first = takeOpenRequest(service);
    if (first) handler(first);
    const l: Listener = (r) => {
      if (r.service === service && takeOpenRequest(service)) handler(r);
    };
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, [service, handler]);
}
