// Item links in the address fragment: `#/forensic/case/<id>/story/<sid>`, `#/replay/story/<id>` (what "Send to…" puts
// beside a finding's evidence) and `#/<service>/<kind>/<id>`. Followed at start-up and on every hash change through
// the same requestOpen path as the search box. The token fragment (`#token=…`) is not a route and is left alone.
import { useEffect } from 'react';
import type { OpenRequest } from './openItem';

/** Words a link may use for a service: its own name or its workspace's. */
const SERVICE_ALIASES: Readonly<Record<string, string>> = {
  forensic: 'forensic',
  cases: 'forensic',
  replay: 'replay',
  pkgscan: 'pkgscan',
  packages: 'pkgscan',
  caseassess: 'caseassess',
  assessment: 'caseassess',
  attrib: 'attrib',
  ach: 'attrib',
  provgate: 'provgate',
  lineage: 'provgate',
  petriage: 'petriage',
  triage: 'petriage',
  flowdet: 'flowdet',
  flows: 'flowdet',
};

const MAX_SEGMENT = 300;
const KIND = /^[a-z][a-z0-9-]{0,39}$/;

/** A path segment decoded, or null when it is empty, too long, not decodable or holds a control character or a slash. */
function segment(raw: string | undefined): string | null {
  if (raw === undefined || raw === '' || raw.length > MAX_SEGMENT * 3) return null;
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (s === '' || s.length > MAX_SEGMENT || s.includes('/')) return null;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || c === 0x7f) return null;
  }
  return s;
}

function request(service: string, kind: string, id: string, parent?: string): OpenRequest {
  return { service, kind, id, ...(parent !== undefined ? { parent } : {}), title: `${kind.replace(/-/g, ' ')} ${id}` };
}

/**
 * The open request a fragment names, or null when it names none. Shapes:
 * `#/forensic/case/<case>`, `#/forensic/case/<case>/story/<story>`, `#/forensic/case/<case>/event/<event>`,
 * `#/replay/analysis/<analysis>/alert/<rule>`, and `#/<service>/<kind>/<id>` for any service (its name or its
 * workspace's: cases, packages, assessment, ach, lineage…), with an optional `?parent=<id>` for items that have one.
 */
export function parseHashRoute(hash: string): OpenRequest | null {
  if (!hash.startsWith('#/')) return null;
  const [path = '', query = ''] = hash.slice(2).split('?', 2);
  const parts = path.split('/');
  if (parts.at(-1) === '') parts.pop();
  const service = SERVICE_ALIASES[(parts[0] ?? '').toLowerCase()];
  const kind = (parts[1] ?? '').toLowerCase();
  if (service === undefined || !KIND.test(kind)) return null;
  const id = segment(parts[2]);
  if (id === null) return null;
  if (parts.length === 5) {
    const child = (parts[3] ?? '').toLowerCase();
    const childId = segment(parts[4]);
    if (childId === null) return null;
    if (service === 'forensic' && kind === 'case' && (child === 'story' || child === 'event')) return request(service, child, childId, id);
    if (service === 'replay' && kind === 'analysis' && child === 'alert') return request(service, 'alert', childId, id);
    return null;
  }
  if (parts.length !== 3) return null;
  const parentRaw = new URLSearchParams(query).get('parent');
  const parent = parentRaw === null ? undefined : segment(encodeURIComponent(parentRaw));
  if (parent === null) return null;
  return request(service, kind, id, parent);
}

/** Opens the item `hash` names, clearing the fragment first (`clear`); false, touching nothing, when it names none. */
export function followHashRoute(hash: string, clear: () => void, open: (r: OpenRequest) => void): boolean {
  const r = parseHashRoute(hash);
  if (r === null) return false;
  clear();
  open(r);
  return true;
}

/**
 * Follows the fragment's item link once the gateway's services are known (`ready`): at start-up and on every hash
 * change, through `open` (the search box's path: select the workspace, send the request). The fragment is cleared
 * once followed, so the same link clicked again is a change again and a reload does not reopen it.
 */
export function useHashRoute(ready: boolean, open: (r: OpenRequest) => void): void {
  useEffect(() => {
    if (!ready) return undefined;
    const follow = (): void => {
      followHashRoute(window.location.hash, () => window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`), open);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [ready, open]);
}
