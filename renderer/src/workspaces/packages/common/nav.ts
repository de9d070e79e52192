// Where the analyst is in the Packages workspace (one zustand store): the tab, the verdict open in History, the package the Package tab shows, the diff the Release diffs tab opens.
import { create } from 'zustand';
import type { ScanVerdict } from '../../../../../engines/core/contracts/pkgscan';
import type { Tab } from '../tabs';

/** A section's id: the ids of the list in tabs.tsx. */
export type { Tab };

export interface PackageRef {
  readonly ecosystem: string;
  readonly name: string;
}

export interface PackagesNav {
  readonly tab: Tab;
  /** The verdict the History tab shows instead of its list. */
  readonly scanId: string | null;
  readonly pkg: PackageRef | null;
  /** The advisory the Vulnerabilities tab shows. */
  readonly vulnId: string | null;
  /** The verdict of the last scan run in the Scan tab (kept while the analyst looks elsewhere). */
  readonly lastVerdict: ScanVerdict | null;
  /** The release diff the Release diffs tab opens (a monitoring check's new release links here). */
  readonly diffId: string | null;
  /** The project (and one of its scans) the Projects tab opens (a search hit links here). */
  readonly projectScan: { readonly projectId: string; readonly scanId: string | null } | null;
  /** The container scan the Containers tab opens (a search hit links here). */
  readonly containerScanId: string | null;
  setTab(tab: Tab): void;
  openScan(id: string | null): void;
  openPackage(pkg: PackageRef): void;
  openVuln(id: string | null): void;
  setLastVerdict(v: ScanVerdict | null): void;
  openDiff(id: string | null): void;
  openProjectScan(projectId: string, scanId: string | null): void;
  openContainerScan(id: string | null): void;
  reset(): void;
}

export const usePackagesNav = create<PackagesNav>((set) => ({
  tab: 'me',
  scanId: null,
  pkg: null,
  vulnId: null,
  lastVerdict: null,
  diffId: null,
  projectScan: null,
  containerScanId: null,
  setTab: (tab) => set({ tab }),
  openScan: (scanId) => set(scanId === null ? { scanId } : { scanId, tab: 'history' }),
  openPackage: (pkg) => set({ pkg, tab: 'package' }),
  openVuln: (vulnId) => set(vulnId === null ? { vulnId } : { vulnId, tab: 'vulns' }),
  setLastVerdict: (lastVerdict) => set({ lastVerdict }),
  openDiff: (diffId) => set(diffId === null ? { diffId } : { diffId, tab: 'diffs' }),
  openProjectScan: (projectId, scanId) => set({ projectScan: { projectId, scanId }, tab: 'projects' }),
  openContainerScan: (containerScanId) => set(containerScanId === null ? { containerScanId } : { containerScanId, tab: 'containers' }),
  reset: () => set({ tab: 'me', scanId: null, pkg: null, vulnId: null, lastVerdict: null, diffId: null, projectScan: null, containerScanId: null }),
}));
