// Pure helpers of the Release diffs tab: the changed files as a tree with each file's mark, and the risk dimensions before and after in a stable order.
import type { ReleaseDiff } from '../../../../../engines/core/contracts/pkgscan-diffs';

export type FileMark = 'added' | 'changed' | 'removed';

export interface TreeRow {
  /** The full path (a folder's ends with `/`). */
  readonly path: string;
  readonly name: string;
  readonly depth: number;
  readonly dir: boolean;
  /** A file's change; for a folder, the marks of the files under it. */
  readonly marks: readonly FileMark[];
  readonly executable: boolean;
  readonly binary: boolean;
  readonly installTime: boolean;
  readonly size: number | null;
  readonly previousSize: number | null;
}

interface Node {
  dirs: Map<string, Node>;
  files: Map<string, { mark: FileMark; size: number; previous: number | null; executable: boolean }>;
  marks: Set<FileMark>;
}

const empty = (): Node => ({ dirs: new Map(), files: new Map(), marks: new Set() });

/** The added, changed and removed files as a tree: folders first, then files, by name; each folder carries its files' marks. */
export function fileTree(files: ReleaseDiff['files']): TreeRow[] {
  const root = empty();
  const add = (path: string, mark: FileMark, size: number, previous: number | null, executable: boolean): void => {
    const parts = path.split('/').filter(Boolean);
    let node = root;
    node.marks.add(mark);
    for (const dir of parts.slice(0, -1)) {
      const next = node.dirs.get(dir) ?? empty();
      node.dirs.set(dir, next);
      next.marks.add(mark);
      node = next;
    }
    node.files.set(parts.at(-1) ?? path, { mark, size, previous, executable });
  };
  for (const f of files.added) add(f.path, 'added', f.size, null, f.executable);
  for (const f of files.changed) add(f.path, 'changed', f.size, f.previous?.size ?? null, f.executable);
  for (const f of files.removed) add(f.path, 'removed', f.size, null, f.executable);
  const binaries = new Set(files.new_binaries);
  const install = new Set([...files.install_time.added, ...files.install_time.changed, ...files.install_time.to]);
  const rows: TreeRow[] = [];
  const order: FileMark[] = ['added', 'changed', 'removed'];
  const visit = (node: Node, prefix: string, depth: number): void => {
    for (const [name, child] of [...node.dirs.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      rows.push({ path: `${prefix}${name}/`, name, depth, dir: true, marks: order.filter((m) => child.marks.has(m)), executable: false, binary: false, installTime: false, size: null, previousSize: null });
      visit(child, `${prefix}${name}/`, depth + 1);
    }
    for (const [name, f] of [...node.files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const path = `${prefix}${name}`;
      rows.push({ path, name, depth, dir: false, marks: [f.mark], executable: f.executable, binary: binaries.has(path), installTime: install.has(path), size: f.size, previousSize: f.previous });
    }
  };
  visit(root, '', 0);
  return rows;
}

/** Every risk dimension with its before and after, the largest change first. */
export function dimensionRows(dims: ReleaseDiff['dimensions']): { name: string; from: number; to: number; delta: number }[] {
  return Object.entries(dims)
    .map(([name, d]) => ({ name, from: d.from, to: d.to, delta: d.to - d.from }))
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.name.localeCompare(b.name));
}
