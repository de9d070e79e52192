// The in-memory file index of an image: layers applied in order, whiteouts (`.wh.name`, `.wh..wh..opq`) removing what lower layers put there.
import type { IndexEntry } from './types.js';

interface Node {
  entry?: IndexEntry;
  children?: Map<string, Node>;
}

export const WHITEOUT_PREFIX = '.wh.';
export const OPAQUE_MARKER = '.wh..wh..opq';

/**
 * A layer member's path as an image path: `./` and `/` prefixes and a trailing `/` taken off, empty and `.`
 * components dropped; undefined for a path with a `..` component (it would reach outside the root).
 */
export function normalizeLayerPath(raw: string): string | undefined {
  const parts: string[] = [];
  for (const p of raw.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') return undefined;
    parts.push(p);
  }
  return parts.join('/');
}

export type Whiteout = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'opaque'; readonly dir: string };

/** The whiteout a normalised path stands for, if it is one. */
export function whiteoutOf(path: string): Whiteout | undefined {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  const dir = slash < 0 ? '' : path.slice(0, slash);
  if (base === OPAQUE_MARKER) return { kind: 'opaque', dir };
  if (base.startsWith(WHITEOUT_PREFIX) && base.length > WHITEOUT_PREFIX.length) {
    const name = base.slice(WHITEOUT_PREFIX.length);
    return { kind: 'file', path: dir === '' ? name : `${dir}/${name}` };
  }
  return undefined;
}

/** The file system after the layers applied so far. */
export class FileIndex {
  private readonly root: Node = {};
  private count = 0;

  get size(): number {
    return this.count;
  }

  private node(path: string, create: boolean): Node | undefined {
    let n: Node = this.root;
    if (path === '') return n;
    for (const part of path.split('/')) {
      let next = n.children?.get(part);
      if (next === undefined) {
        if (!create) return undefined;
        next = {};
        (n.children ??= new Map()).set(part, next);
      }
      n = next;
    }
    return n;
  }

  get(path: string): IndexEntry | undefined {
    return this.node(path, false)?.entry;
  }

  private countUnder(n: Node): number {
    let c = n.entry !== undefined ? 1 : 0;
    if (n.children) for (const ch of n.children.values()) c += this.countUnder(ch);
    return c;
  }

  /** Removes a path and everything under it; returns how many entries went. */
  remove(path: string): number {
    const slash = path.lastIndexOf('/');
    const parent = this.node(slash < 0 ? '' : path.slice(0, slash), false);
    const name = path.slice(slash + 1);
    const n = parent?.children?.get(name);
    if (parent === undefined || n === undefined) return 0;
    const removed = this.countUnder(n);
    parent.children?.delete(name);
    this.count -= removed;
    return removed;
  }

  /** Removes everything under a directory that came from a layer below `layer` (an opaque whiteout); the directory itself stays. */
  clearBelow(dir: string, layer: number): number {
    const n = this.node(dir, false);
    if (n?.children === undefined) return 0;
    let removed = 0;
    const sweep = (node: Node): boolean => {
      if (node.children)
        for (const [k, ch] of node.children) {
          if (sweep(ch)) node.children.delete(k);
        }
      if (node.entry !== undefined && node.entry.layer < layer) {
        delete node.entry;
        removed++;
      }
      return node.entry === undefined && (node.children === undefined || node.children.size === 0);
    };
    for (const [k, ch] of n.children) if (sweep(ch)) n.children.delete(k);
    this.count -= removed;
    return removed;
  }

  /**
   * Puts an entry in place; returns whether a path was replaced. A non-directory over a directory hides what was
   * under it (overlay semantics), so that subtree goes.
   */
  put(entry: IndexEntry): { replaced: boolean; removed: number } {
    let removed = 0;
    const existing = this.node(entry.path, false);
    if (existing !== undefined && entry.kind !== 'directory' && existing.children !== undefined && existing.children.size > 0) {
      for (const ch of existing.children.values()) removed += this.countUnder(ch);
      existing.children.clear();
      this.count -= removed;
    }
    const n = this.node(entry.path, true) as Node;
    const replaced = n.entry !== undefined;
    if (!replaced) this.count++;
    n.entry = entry;
    return { replaced, removed };
  }

  /** Every entry, sorted by path. */
  entries(): IndexEntry[] {
    const out: IndexEntry[] = [];
    const walk = (n: Node): void => {
      if (n.entry !== undefined) out.push(n.entry);
      if (n.children) for (const k of [...n.children.keys()].sort()) walk(n.children.get(k) as Node);
    };
    walk(this.root);
    return out;
  }
}
