// caseFolded: the expression without `i` matches exactly what the original matches with it, on generated patterns and
// on every case-insensitive `re` value of the shipped rules, over texts made of the pattern's own words in mixed case,
// ASCII punctuation and the non-ASCII characters whose case folding differs with `u` (ſ, K, İ, ß).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { mulberry32 } from '../../core/random.js';
import { REPO_ROOT } from '../../../test/corpora.js';
import { caseFolded } from './casefold.js';

const EXTRA = ['ſ', 'K', 'İ', 'ß', 'é', '\n', ' ', '\\', '"', '-', '_', '0', '9', '{', '}', '[', ']', '/', '.', '&'];

/** Texts of the pattern's words (each letter in a random case) and the extra characters. */
function textsFor(source: string, count: number, seed: number): string[] {
  const next = mulberry32(seed);
  const words = source.split(/[\\()[\]{}|*+?.^$]+/).filter((w) => w !== '');
  const pieces = [...words, ...EXTRA, ...'aAzZsSkK'];
  const mixed = (p: string): string => [...p].map((c) => (next() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
  return Array.from({ length: count }, (_, k) => {
    let t = '';
    if (k % 2 === 0) {
      // the pattern's words in order, most of them, with a character between
      for (const w of words) if (next() < 0.9) t += mixed(w) + (EXTRA[Math.floor(next() * EXTRA.length)] as string);
      return t;
    }
    const n = Math.floor(next() * 10);
    for (let j = 0; j < n; j++) t += mixed(pieces[Math.floor(next() * pieces.length)] as string);
    return t;
  });
}

function agree(source: string, flags: string, count: number, seed: number): { matched: number } {
  const folded = caseFolded(source);
  if (folded === null) return { matched: -1 };
  const a = new RegExp(source, `${flags}i`);
  const b = new RegExp(folded, flags);
  let matched = 0;
  for (const t of textsFor(source, count, seed)) {
    const want = a.test(t);
    expect(b.test(t), `${source} on ${JSON.stringify(t)}`).toBe(want);
    if (want) matched++;
  }
  return { matched };
}

/** The case-insensitive `re` values of the shipped Sigma rules (a `(?i)` prefix, or the `i` modifier). */
function shippedCaseInsensitive(): string[] {
  const out = new Set<string>();
  const root = path.join(REPO_ROOT, 'resources', 'forensic', 'sigma');
  const visit = (node: unknown, acc: [string, string][]): void => {
    if (Array.isArray(node)) for (const x of node) visit(x, acc);
    else if (node !== null && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k.includes('|re')) for (const x of Array.isArray(v) ? v : [v]) acc.push([k, String(x)]);
        visit(v, acc);
      }
  };
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.yml')) {
        const text = readFileSync(p, 'utf8');
        if (!text.includes('|re')) continue;
        const acc: [string, string][] = [];
        for (const doc of parseAllDocuments(text)) visit((doc.toJS() as { detection?: unknown } | null)?.detection, acc);
        for (const [k, v] of acc) {
          if (v.startsWith('(?i)')) out.add(v.slice(4));
          else if (k.split('|').includes('i')) out.add(v);
        }
      }
    }
  };
  for (const set of ['rules', 'rules-emerging-threats', 'rules-threat-hunting', 'rules-builtin']) walk(path.join(root, set));
  return [...out];
}

describe('caseFolded', () => {
  it('folds letters, classes and ranges, and keeps escapes', () => {
    expect(caseFolded('set')).toBe('[sS][eE][tT]');
    expect(caseFolded('[a-c_]\\d\\w+x{2}')).toBe('[a-cA-C\\x5f]\\d\\w+[xX]{2}');
    expect(caseFolded('[^a]')).toBe('[^aA]');
    expect(caseFolded('[]a')).toBe('[][aA]');
    expect(caseFolded('(?<=a)b(?!c)')).toBe('(?<=[aA])[bB](?![cC])');
    for (const s of ['\\x41', '\\u0041', '\\cA', '(a)\\1', '(?<n>a)', 'é', '\\p{L}', '\\k', '[\\x41]', '[a-\\d]', '\\01']) expect(caseFolded(s), s).toBeNull();
  });

  it('matches what the expression matched with i, on generated patterns', () => {
    const next = mulberry32(61);
    const parts = ['a', 'Z', 'k', 's', 'set', 'Cmd', '[a-f]', '[^x]', '[A-Z0-9]', '[_-z]', '[\\d.-]', '[\\]a]', '\\d', '\\w', '\\W', '\\b', '\\s', '.', '.*', '+', '?', '{2}', '(?:', ')', '|', '^', '$', '\\\\', '\\.', '-', ' ', '(?=b)', '(?<!c)'];
    let checked = 0;
    for (let k = 0; k < 3_000; k++) {
      let src = '';
      const n = 1 + Math.floor(next() * 8);
      for (let j = 0; j < n; j++) src += parts[Math.floor(next() * parts.length)] as string;
      try {
        new RegExp(src, 'i');
      } catch {
        continue;
      }
      if (agree(src, '', 40, k).matched >= 0) checked++;
    }
    expect(checked).toBeGreaterThan(1_500);
  });

  it('matches what every case-insensitive re value of the shipped rules matched', () => {
    const values = shippedCaseInsensitive();
    expect(values.length).toBeGreaterThan(50);
    let folded = 0;
    let matched = 0;
    values.forEach((v, i) => {
      const r = agree(v, '', 400, i);
      if (r.matched >= 0) folded++;
      matched += Math.max(0, r.matched);
    });
    // most are folded (the rest keep `i`), and the texts reach matches as well as misses
    expect(folded).toBeGreaterThan(values.length * 0.8);
    expect(matched).toBeGreaterThan(300);
  });
});
