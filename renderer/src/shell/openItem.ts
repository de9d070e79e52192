// "Open this item": the search box (and later other shell parts) asks a workspace to show one item by id.
// The shell selects the workspace; a workspace that can select items by id calls useOpenRequest and takes the
// request meant for it, and declares the kinds it takes in its registry entry (`links.opens`). For any other kind
// the search box says it opened the workspace only.
import { useEffect } from 'react';
import type { SearchLink } from '../../../engines/core/contracts/search';
import { opensKind } from '../workspaces/registry';

export interface OpenRequest extends SearchLink {
  /** What the item is called, for the note shown when the workspace cannot select it. */
  readonly title: string;
}

type Listener = (r: OpenRequest) => void;

let pending: OpenRequest | null = null;
const listeners = new Set<Listener>();

/** Whether the link's workspace selects the item by id (its `links.opens`, workspaces/registry.ts); the search box says how far it got. */
export function canOpen(link: SearchLink): boolean {
  return opensKind(link.service, link.kind);
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
