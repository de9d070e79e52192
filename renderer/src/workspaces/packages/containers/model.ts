// Pure helpers of the Containers tab: which files may be sent, the image name as a label, packages filtered and counted per layer, what each check found.
import type { ContainerFinding, ContainerFindingCategory, ContainerPackage, ContainerToolStatus } from '../../../../../engines/core/contracts/pkgscan-containers';

export const MAX_IMAGE_BYTES = 256 * 1048576;

/** Why an image file is not sent (null when it may be): not a tarball name, empty, or over 256 MiB. */
export function imageRefusal(file: { name: string; size: number }): string | null {
  if (!/\.(tar|tar\.gz|tgz)$/i.test(file.name)) return 'not an image tarball (docker save or OCI layout .tar)';
  if (file.size === 0) return 'empty file';
  if (file.size > MAX_IMAGE_BYTES) return 'larger than the 256 MiB upload limit';
  return null;
}

/** A default image label from the file name: `debian-layers.docker.tar` -> `debian-layers.docker`. */
export function refFromFilename(name: string): string {
  return (name.split(/[\\/]/).pop() ?? name).replace(/\.(tar\.gz|tgz|tar)$/i, '').slice(0, 200);
}

/** Packages whose name or version contains `q` (case-insensitive), of a type when one is given, sorted by type then name. */
export function filterPackages(list: readonly ContainerPackage[], q: string, type: string): ContainerPackage[] {
  const needle = q.trim().toLowerCase();
  return list
    .filter((p) => (type === '' || p.type === type) && (needle === '' || p.name.toLowerCase().includes(needle) || p.version.toLowerCase().includes(needle)))
    .sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
}

/** Counts of packages by type, for the filter's options. */
export function packageTypes(list: readonly ContainerPackage[]): { type: string; count: number }[] {
  const m = new Map<string, number>();
  for (const p of list) m.set(p.type, (m.get(p.type) ?? 0) + 1);
  return [...m.entries()].map(([type, count]) => ({ type, count })).sort((a, b) => a.type.localeCompare(b.type));
}

/** The finding categories each check gives. */
const CHECK_CATEGORIES: Readonly<Record<ContainerToolStatus['name'], readonly ContainerFindingCategory[]>> = {
  archive: [],
  config: ['config', 'image'],
  packages: ['package'],
  secrets: ['secret'],
  permissions: ['permissions'],
  vulnerabilities: ['vulnerability'],
  sbom: [],
};

const RANK = { info: 0, low: 1, medium: 2, high: 3, critical: 4 } as const;

/**
 * What a check's chip says: whether it ran is not whether it found nothing. A check that ran and found critical secrets
 * reads "2 findings, critical" in red, never a green "ok"; only a check that ran and found nothing is "ok, nothing found".
 */
export function checkOutcome(tool: ContainerToolStatus, findings: readonly ContainerFinding[]): { label: string; tone: 'ok' | 'danger' | 'warn' | 'neutral' } {
  if (tool.status === 'failed' || tool.status === 'unavailable') return { label: tool.status, tone: 'warn' };
  if (tool.status === 'skipped') return { label: 'skipped', tone: 'neutral' };
  const cats = CHECK_CATEGORIES[tool.name];
  const mine = findings.filter((f) => cats.includes(f.category));
  const partial = tool.status === 'partial' ? ' (partial)' : '';
  if (mine.length === 0) return cats.length === 0 ? { label: tool.status === 'ok' ? 'ok' : 'partial', tone: tool.status === 'ok' ? 'ok' : 'warn' } : { label: `nothing found${partial}`, tone: tool.status === 'ok' ? 'ok' : 'warn' };
  const worst = mine.reduce((m, f) => (RANK[f.severity] > RANK[m] ? f.severity : m), mine[0]?.severity ?? 'info');
  return { label: `${mine.length} finding${mine.length === 1 ? '' : 's'}, ${worst}${partial}`, tone: RANK[worst] >= RANK.high ? 'danger' : RANK[worst] >= RANK.medium ? 'warn' : 'neutral' };
}
