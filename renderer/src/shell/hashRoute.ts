// Item links in the address fragment: `#/forensic/case/<id>/story/<sid>`, `#/replay/story/<id>` (what "Send to…" puts
// beside a finding's evidence) and `#/<service>/<kind>/<id>`. Followed at start-up and on every hash change through
// the same requestOpen path as the search box. The token fragment (`#token=…`) is not a route and is left alone.
// Which words name a workspace and which items nest in which are each workspace's `links` (workspaces/registry.ts).
import { useEffect } from 'react';
import { linkTarget as registryLinkTarget, type WorkspaceDef } from '../workspaces/registry';
import type { OpenRequest } from './openItem';

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
 * The open request a fragment names, or null when it names none. Shapes: `#/<service>/<kind>/<id>` for any workspace
 * that takes links (its service name or one of its aliases: cases, packages, assessment, ach, lineage…), with an
 * optional `?parent=<id>` for items that have one, and the nested shapes a workspace declares
 * (`#/forensic/case/<case>/story/<story>`, `#/replay/analysis/<analysis>/alert/<rule>`). `linkTarget` is the
 * registry's lookup, a parameter so a test can route through a registry with an entry of its own.
 */
export function parseHashRoute(hash: string, linkTarget: (word: string) => WorkspaceDef | undefined = registryLinkTarget): OpenRequest | null {
  if (!hash.startsWith('#/')) return null;
  const [path = '', query = ''] = hash.slice(2).split('?', 2);
  const parts = path.split('/');
  if (parts.at(-1) === '') parts.pop();
  const ws = linkTarget(parts[0] ?? '');
  const kind = (parts[1] ?? '').toLowerCase();
  if (ws?.links === undefined || !KIND.test(kind)) return null;
  const service = ws.service;
  const id = segment(parts[2]);
  if (id === null) return null;
  if (parts.length === 5) {
    const child = (parts[3] ?? '').toLowerCase();
    const childId = segment(parts[4]);
    if (childId === null) return null;
    if (Object.hasOwn(ws.links.nested ?? {}, kind) && ws.links.nested?.[kind]?.includes(child) === true) return request(service, child, childId, id);
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
