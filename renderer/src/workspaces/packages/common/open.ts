// Packages' part of "open this item" (the search box, item links in the address): a scan's verdict in History, a
// package page, a release diff, a project scan, a container scan, each through the workspace's nav store.
import type { OpenRequest } from '../../../shell/openItem';
import type { PackagesNav } from './nav';

type Nav = Pick<PackagesNav, 'openScan' | 'openPackage' | 'openDiff' | 'openProjectScan' | 'openContainerScan'>;

/** `ecosystem:name` (the name may hold colons and slashes, as scoped npm and Maven names do). */
export function packageRefOf(id: string): { readonly ecosystem: string; readonly name: string } | null {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1) return null;
  return { ecosystem: id.slice(0, i).toLowerCase(), name: id.slice(i + 1) };
}

/**
 * Applies the request to the nav store; false for a kind Packages cannot select by id (a store artifact: the Store tab
 * lists by filter only). Each opener is first reset, so asking for the item already shown shows it again.
 */
export function openInPackages(r: Pick<OpenRequest, 'kind' | 'id' | 'parent'>, nav: Nav): boolean {
  switch (r.kind) {
    case 'scan':
      nav.openScan(null);
      nav.openScan(r.id);
      return true;
    case 'diff':
      nav.openDiff(null);
      nav.openDiff(r.id);
      return true;
    case 'container-scan':
      nav.openContainerScan(null);
      nav.openContainerScan(r.id);
      return true;
    case 'project-scan':
      if (r.parent === undefined) return false;
      nav.openProjectScan(r.parent, r.id);
      return true;
    case 'package': {
      const ref = packageRefOf(r.id);
      if (ref === null) return false;
      nav.openPackage(ref);
      return true;
    }
    default:
      return false;
  }
}
