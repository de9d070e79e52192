// YAML lock files (pnpm-lock.yaml, yarn berry): the `yaml` package's syntax tree gives each key's line.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, YAMLMap } from 'yaml';
import { parseError } from './context.js';

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

/** A node as plain data (aliases expanded within the yaml package's alias limit). */
export function plain(lock: YamlLock, node: unknown): unknown {
  if (node === null || node === undefined) return node;
  if (typeof node === 'object' && 'toJS' in node) {
    try {
      return (node as YamlNode).toJS(lock.doc, { maxAliasCount: 100 });
    } catch {
      throw parseError('the YAML document expands too many aliases');
    }
  }
  return node;
}
