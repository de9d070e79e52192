// Pure helpers of the Projects tab: which dropped files the project scan reads, the scan's limits, findings by file, the part of the dependency graph worth drawing.
import type { DependencyGraph, GraphNode, ProjectFinding } from '../../../../../engines/core/contracts/pkgscan-projects';
import { severityRank } from '../common/model';

/** The service's limits (docs/pkgscan-projects.md): 50 files, 1 MB each, 5 MB in all. */
export const MAX_FILES = 50;
export const MAX_FILE_BYTES = 1_000_000;
export const MAX_TOTAL_BYTES = 5_000_000;

const LOCKS = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'poetry.lock', 'uv.lock', 'pipfile.lock', 'go.mod', 'go.sum', 'cargo.lock', 'package.json', 'pyproject.toml', '.npmrc', 'containerfile', 'dockerfile']);
/** Folders that hold installed or generated trees, never the project's own manifests. */
const IGNORED_DIRS = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', '.tox']);

/** Whether the service has a reader for this path (by base name, case-insensitive, as the service decides). */
export function isSupportedManifest(path: string): boolean {
  const parts = path.split('/');
  const base = (parts.at(-1) ?? '').toLowerCase();
  if (LOCKS.has(base)) return true;
  if (/^dockerfile\..+/.test(base) || base.endsWith('.dockerfile')) return true;
  if (/^(docker-)?compose.*\.ya?ml$/.test(base)) return true;
  if (/^(requirements|constraints).*\.(txt|in)$/.test(base) || /-requirements\.(txt|in)$/.test(base)) return true;
  return base.endsWith('.txt') && parts.slice(0, -1).some((p) => p.toLowerCase() === 'requirements');
}

/** A file key the route accepts: relative, `/`-separated, no empty, `.` or `..` segment, no control character. */
export function projectPath(raw: string): string | null {
  const p = raw.replace(/\\/g, '/').replace(/^\/+/, '');
  if (p === '' || p.length > 512 || [...p].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) return null;
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..')) return null;
  return p;
}

export interface Candidate {
  readonly path: string;
  readonly size: number;
}

export interface Selection<T extends Candidate> {
  readonly send: T[];
  readonly skipped: { readonly path: string; readonly why: string }[];
}

/** Splits dropped or picked files into those sent (supported, within the limits, in path order) and those listed as skipped with the reason. */
export function selectFiles<T extends Candidate>(files: readonly T[]): Selection<T> {
  const send: T[] = [];
  const skipped: { path: string; why: string }[] = [];
  let total = 0;
  const seen = new Set<string>();
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const key = projectPath(f.path);
    if (key === null) skipped.push({ path: f.path, why: 'not a relative path' });
    else if (key.split('/').slice(0, -1).some((d) => IGNORED_DIRS.has(d))) skipped.push({ path: f.path, why: 'inside an installed or generated folder' });
    else if (!isSupportedManifest(key)) skipped.push({ path: f.path, why: 'not a manifest, lock, Dockerfile, Compose file or .npmrc' });
    else if (seen.has(key)) skipped.push({ path: f.path, why: 'same path twice' });
    else if (f.size > MAX_FILE_BYTES) skipped.push({ path: f.path, why: 'over the 1 MB per file limit' });
    else if (send.length >= MAX_FILES) skipped.push({ path: f.path, why: `over the ${MAX_FILES} files limit` });
    else if (total + f.size > MAX_TOTAL_BYTES) skipped.push({ path: f.path, why: 'over the 5 MB limit in all' });
    else {
      seen.add(key);
      total += f.size;
      send.push({ ...f, path: key });
    }
  }
  return { send, skipped };
}

export interface ProjectFileGroup {
  readonly file: string;
  readonly severity: string;
  readonly findings: ProjectFinding[];
}

/** Findings grouped by submitted file, worst file first; inside a file by line. */
export function findingsByFile(findings: readonly ProjectFinding[]): ProjectFileGroup[] {
  const by = new Map<string, ProjectFinding[]>();
  for (const f of findings) by.set(f.file, [...(by.get(f.file) ?? []), f]);
  return [...by.entries()]
    .map(([file, list]) => ({
      file,
      severity: list.reduce((w, f) => (severityRank(f.severity) > severityRank(w) ? f.severity : w), 'info' as string),
      findings: [...list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || severityRank(b.severity) - severityRank(a.severity)),
    }))
    .sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || a.file.localeCompare(b.file));
}

export interface DrawnGraph {
  readonly nodes: GraphNode[];
  readonly edges: { from: string; to: string }[];
  readonly spof: Map<string, number>;
  readonly omitted: number;
}

/**
 * The nodes worth drawing when the graph is large: the root, direct dependencies, blocked or warned components,
 * single points of failure, then the largest blast radii, up to `max`; edges between drawn nodes only.
 */
export function drawnGraph(graph: DependencyGraph, max = 400): DrawnGraph {
  const spof = new Map(graph.metrics.single_points_of_failure.map((s) => [s.id, s.disconnects]));
  const score = (n: GraphNode): number => (n.depth === 0 ? 6 : 0) + (n.decision === 'block' ? 5 : n.decision === 'warn' ? 3 : 0) + (spof.has(n.id) ? 4 : 0) + (n.direct ? 2 : 0);
  const ranked = [...graph.nodes].sort((a, b) => score(b) - score(a) || b.blast_radius - a.blast_radius || a.id.localeCompare(b.id));
  const kept = ranked.slice(0, max);
  const ids = new Set(kept.map((n) => n.id));
  return { nodes: kept, edges: graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e) => ({ from: e.from, to: e.to })), spof, omitted: graph.nodes.length - kept.length };
}

/** A node's label: the name and version, or the project for the root. */
export function nodeLabel(n: GraphNode): string {
  if (n.depth === 0 && n.ecosystem === null) return n.name || 'project';
  return n.version ? `${n.name}@${n.version}` : n.name;
}
