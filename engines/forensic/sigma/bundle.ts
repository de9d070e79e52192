// The shipped rules pre-read: resources/forensic/sigma/rules.json.gz holds each YAML file as parsed data, so start-up skips YAML.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync as zlibGunzipSync } from 'node:zlib';
import { gzipSync, strToU8 } from 'fflate';
import { parseAllDocuments, visit, type Document } from 'yaml';
import { VitrineError } from '../../core/errors.js';
import { hasComplexKey } from '../../core/manifests/yamlnodes.js';

export const BUNDLE_FILE = 'rules.json.gz';

/** One rule file: its set, path inside the set, SHA-256 of its text, and its documents (null: not YAML). */
export interface BundledFile {
  readonly set: string;
  readonly rel: string;
  readonly sha256: string;
  readonly docs: readonly unknown[] | null;
}

export interface RuleBundle {
  readonly version: 1;
  readonly files: readonly BundledFile[];
}

/**
 * Flow collections (`[`, `{`) a rule text may hold open at once. The YAML parser's descent runs out of stack near a
 * thousand levels and reports the text as broken, but only after seconds of work on a deep one (8 s for 100,000
 * levels in 400 KB): a text past this depth is refused before it is parsed.
 */
export const MAX_FLOW_DEPTH = 1000;

/**
 * Flow collections a rule text may open, in all, while more than DEEP_FLOW_LEVEL are open. The YAML parser reads nested
 * flow collections about five times slower per byte than flat text: a 467 KB rule of a thousand lines each nesting 230
 * brackets took 3.4 s, 800 KB of them 7 s (flat YAML: 1.6 s per MB). No shipped rule opens more than a few hundred
 * below that level (counting brackets in regular expressions too).
 */
export const DEEP_FLOW_LEVEL = 16;
export const MAX_DEEP_FLOW_OPENINGS = 4096;

/**
 * Whether the text ever holds more than `limit` brackets and braces open, or opens more than `deepBudget` of them while
 * more than DEEP_FLOW_LEVEL are open, counting every one (also inside quotes and comments, which only makes the counts
 * higher): one pass, no allocation.
 */
export function flowDepthOver(text: string, limit: number, deepBudget = MAX_DEEP_FLOW_OPENINGS): boolean {
  let depth = 0;
  let deep = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
      if (depth > DEEP_FLOW_LEVEL && ++deep > deepBudget) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}

/**
 * Alias nodes a rule document may hold (the figure of the `yaml` package's `maxAliasCount` the loader converts with).
 * Converting a document counts, for an anchored collection, the aliases under it, and looks each of those up by walking
 * the whole document again: a rule of one long anchored string and 10,000 aliases of it, 135 KB, took 7 s before the
 * alias limit refused it. No shipped rule document holds more than two.
 */
export const MAX_ALIASES = 100;

/**
 * Whether a document has more than MAX_ALIASES aliases, or a mapping key that is not a plain value: a collection
 * (`? [a]`, `? ? x`) or an alias. The YAML package turns such a key into text when it converts the document to data,
 * writing each nested key out again at every level: `? ` written 200 times (400 bytes) took over a second and 400 times
 * did not finish in 90 s (hasComplexKey). A Sigma rule's keys are field names, identifiers and modifiers, so such a
 * document is refused before it is converted.
 */
export function unconvertible(doc: Document.Parsed): boolean {
  if (hasComplexKey(doc.contents)) return true;
  let aliases = 0;
  let found = false;
  visit(doc, {
    Alias() {
      if (++aliases <= MAX_ALIASES) return undefined;
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * The YAML documents of a rule text, or null when it is not YAML (or nests flow collections past MAX_FLOW_DEPTH or opens
 * more than MAX_DEEP_FLOW_OPENINGS below DEEP_FLOW_LEVEL, or has a mapping key that is not a plain value or more than
 * MAX_ALIASES aliases: unconvertible).
 */
export function yamlDocuments(text: string): unknown[] | null {
  if (flowDepthOver(text, MAX_FLOW_DEPTH)) return null;
  try {
    const docs = parseAllDocuments(text);
    const list = Array.isArray(docs) ? docs : [docs];
    if (list.some((d) => d.errors.length > 0 || unconvertible(d))) return null;
    return list.map((d) => d.toJS({ maxAliasCount: MAX_ALIASES }) as unknown).filter((d) => d !== null && d !== undefined);
  } catch {
    return null;
  }
}

export const sha256Text = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Builds the bundle from rule files ({set, rel, file}); the generator behind the shipped file. */
export function buildBundle(files: readonly { set: string; rel: string; file: string }[]): RuleBundle {
  return {
    version: 1,
    files: files.map(({ set, rel, file }) => {
      const text = readFileSync(file, 'utf8');
      return { set, rel, sha256: sha256Text(text), docs: yamlDocuments(text) };
    }),
  };
}

export function writeBundle(dir: string, bundle: RuleBundle): void {
  writeFileSync(path.join(dir, BUNDLE_FILE), gzipSync(strToU8(JSON.stringify(bundle)), { level: 9, mtime: 0 }));
}

/**
 * The shipped bundle, or null when absent. Inflated by node:zlib (native: about 35 ms for the shipped file where
 * fflate's JavaScript inflate took about 0.15 s) and decoded by Buffer's UTF-8 decoder; writeBundle still gzips with
 * fflate, so the file's bytes do not depend on the zlib Node links.
 */
export function readBundle(dir: string): RuleBundle | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, BUNDLE_FILE));
  } catch {
    return null;
  }
  try {
    const b = JSON.parse(zlibGunzipSync(bytes).toString('utf8')) as RuleBundle;
    if (b.version !== 1 || !Array.isArray(b.files)) throw new Error('version');
    return b;
  } catch (err) {
    throw new VitrineError('internal', 'the shipped Sigma rule bundle is damaged', { cause: err });
  }
}
