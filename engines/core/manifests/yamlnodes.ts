// YAML inputs (pnpm-lock.yaml, yarn berry, compose, OSV advisories): the `yaml` package's syntax tree gives each key's line; anchors, aliases and merge keys are resolved as consumers resolve them, within a bound.
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, YAMLMap } from 'yaml';
import { parseError } from './context.js';

/** Nodes an expanded document may hold beyond its own: aliases may repeat a subtree, never blow it up (billion laughs). */
export const YAML_EXPANSION_FLOOR = 200_000;
/** ...and at most this many times the nodes written in the file. */
export const YAML_EXPANSION_FACTOR = 20;

export type YamlAliasProblem = 'alias_bomb' | 'alias_cycle' | 'unknown_alias';

/** Thrown by resolveAliases: a document whose aliases expand past the bound, refer to themselves, or name no anchor. */
export class YamlAliasError extends Error {
  constructor(readonly problem: YamlAliasProblem) {
    super(problem === 'alias_bomb' ? 'the YAML document expands its aliases past the limit (a billion-laughs document)' : problem === 'alias_cycle' ? 'a YAML alias refers to a node that contains it' : 'a YAML alias names no anchor before it');
    this.name = 'YamlAliasError';
  }
}

/**
 * Resolves, in place, every alias to the node its anchor names (the nearest anchor of that name before it, as YAML
 * says) and every merge key `<<: *base` / `<<: [*a, *b]` into the mapping (the mapping's own keys win, then the
 * sources in order), so readers see what compose, pnpm and other consumers see. Shared nodes are not copied; the
 * expanded size is counted over them once each, in linear time, and a document whose expansion exceeds
 * max(YAML_EXPANSION_FLOOR, YAML_EXPANSION_FACTOR x written nodes) is refused (`alias_bomb`).
 */
export function resolveAliases(doc: Document): void {
  const anchors = new Map<string, unknown>();
  const open = new Set<unknown>();
  let written = 0;
  const walk = (node: unknown): unknown => {
    if (node === null || node === undefined) return node;
    if (isAlias(node)) {
      written++;
      const target = anchors.get(node.source);
      if (target === undefined) throw new YamlAliasError('unknown_alias');
      if (open.has(target)) throw new YamlAliasError('alias_cycle');
      return target;
    }
    if (isScalar(node)) {
      written++;
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      return node;
    }
    if (isMap(node) || isSeq(node)) {
      written++;
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      open.add(node);
      if (isSeq(node)) node.items = node.items.map((i) => walk(i));
      else {
        for (const pair of node.items) {
          pair.key = walk(pair.key);
          pair.value = walk(pair.value);
        }
        mergeKeys(node);
      }
      open.delete(node);
      return node;
    }
    return node;
  };
  doc.contents = walk(doc.contents) as typeof doc.contents;
  const bound = Math.max(YAML_EXPANSION_FLOOR, YAML_EXPANSION_FACTOR * written);
  // Expanded size over the shared graph, each node counted once with its subtree's total (memo): linear in the nodes.
  const size = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (!isMap(node) && !isSeq(node)) return 1;
    const known = size.get(node);
    if (known !== undefined) return known;
    let n = 1;
    for (const item of node.items) {
      n += isPair(item) ? sizeOf(item.key) + sizeOf(item.value) : sizeOf(item);
      if (n > bound) throw new YamlAliasError('alias_bomb');
    }
    size.set(node, n);
    return n;
  };
  sizeOf(doc.contents);
}

function keyText(k: unknown): string | undefined {
  return isScalar(k) && (typeof k.value === 'string' || typeof k.value === 'number' || typeof k.value === 'boolean') ? String(k.value) : undefined;
}

/** YAML 1.1 merge keys: `<<` takes a mapping or a list of mappings; keys already present are kept. */
function mergeKeys(map: YAMLMap): void {
  if (!map.items.some((p) => keyText(p.key) === '<<' && isScalar(p.key) && p.key.type !== 'QUOTE_DOUBLE' && p.key.type !== 'QUOTE_SINGLE')) return;
  const own = map.items.filter((p) => !(keyText(p.key) === '<<' && isScalar(p.key) && p.key.type !== 'QUOTE_DOUBLE' && p.key.type !== 'QUOTE_SINGLE'));
  const present = new Set(own.map((p) => keyText(p.key)).filter((k): k is string => k !== undefined));
  const merged = [...own];
  for (const p of map.items) {
    if (own.includes(p)) continue;
    const sources = isSeq(p.value) ? p.value.items : [p.value];
    for (const src of sources) {
      if (!isMap(src)) continue;
      for (const q of src.items) {
        const k = keyText(q.key);
        if (k === undefined || present.has(k)) continue;
        present.add(k);
        merged.push(q);
      }
    }
  }
  map.items = merged;
}

/** One `key: value` of a YAML mapping with the 0-based line of the key. */
export interface YamlPair {
  readonly key: string;
  readonly keyLine: number;
  readonly node: unknown;
}

export interface YamlLock {
  readonly doc: Document;
  readonly root: YAMLMap;
  /** 0-based line of a character offset. */
  lineOf(offset: number): number;
}

/**
 * Whether a mapping under `root` has a key that is not a plain value: a mapping, a sequence (`? [a, b]: x`, `? ? ? key`)
 * or an alias. The yaml package converts such a key to data by writing it out as text, again at every level it nests:
 * 200 nested explicit keys in one lock entry took two seconds, 400 did not finish. No lock file, OSV record or Sigma rule
 * has one. Each node is visited once (shared nodes too), without recursion.
 */
export function hasComplexKey(root: unknown): boolean {
  const seen = new Set<unknown>();
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const node = todo.pop();
    if (!(isMap(node) || isSeq(node)) || seen.has(node)) continue;
    seen.add(node);
    for (const item of node.items) {
      if (!isPair(item)) {
        todo.push(item);
        continue;
      }
      if (item.key !== null && !isScalar(item.key)) return true;
      todo.push(item.value);
    }
  }
  return false;
}

/** Parses YAML text whose root must be a mapping; duplicate keys are allowed (lock files do have them) and reported by the caller. */
export function readYaml(text: string): YamlLock {
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    // core schema only: no custom tags, nothing constructed beyond plain data
    doc = parseDocument(text, { lineCounter, uniqueKeys: false, schema: 'core', merge: false, prettyErrors: false });
  } catch {
    throw parseError('the YAML document is malformed');
  }
  if (doc.errors.length > 0) throw parseError('the YAML document is malformed');
  try {
    resolveAliases(doc);
  } catch (error) {
    if (error instanceof YamlAliasError) throw parseError(error.message);
    throw error;
  }
  if (hasComplexKey(doc.contents)) throw parseError('the YAML document has a mapping key that is not a plain value');
  const root = doc.contents;
  if (!isMap(root)) throw parseError('the YAML document is not a mapping');
  return { doc, root, lineOf: (offset) => lineCounter.linePos(offset).line - 1 };
}

/** The pairs of a mapping node in file order, keys as strings (numbers and booleans stringified). */
export function pairs(lock: YamlLock, node: unknown): YamlPair[] {
  if (!isMap(node)) return [];
  const out: YamlPair[] = [];
  for (const item of node.items) {
    const k = item.key;
    if (!isScalar(k) || k.value === null || typeof k.value === 'object') continue;
    const offset = k.range?.[0] ?? 0;
    out.push({ key: String(k.value), keyLine: lock.lineOf(offset), node: item.value });
  }
  return out;
}

/** The value node of a key in a mapping node (the last one, as a YAML reader would keep). */
export function child(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  let found: unknown;
  for (const item of node.items) if (isScalar(item.key) && String(item.key.value) === key) found = item.value;
  return found;
}

/** 0-based line of a key inside a mapping node. */
export function keyLineOf(lock: YamlLock, node: unknown, key: string): number | undefined {
  if (!isMap(node)) return undefined;
  let line: number | undefined;
  for (const item of node.items)
    if (isScalar(item.key) && String(item.key.value) === key) line = lock.lineOf(item.key.range?.[0] ?? 0);
  return line;
}

/** A node as plain data (aliases were resolved, within the expansion bound, when the document was read). */
export function plain(lock: YamlLock, node: unknown): unknown {
  if (node === null || node === undefined) return node;
  if (typeof node === 'object' && 'toJS' in node) {
    try {
      return (node as YamlNode).toJS(lock.doc, { maxAliasCount: 100 });
    } catch {
      throw parseError('the YAML document could not be read as data');
    }
  }
  return node;
}
