/**
 * The ReDoS gate: every regular expression in engine code is either known safe to the checker (recorded in
 * verified-safe.json, keyed by a digest of flags and source), reviewed in reviewed.json (with its reason), or checked
 * now with recheck; a pattern recheck calls vulnerable or cannot decide, and any unreviewed pattern built at run time,
 * is a problem.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { check } from 'recheck';
import { CHECK_PARAMS } from './check.js';
import { extractRegexes, listSources, type FoundRegex } from './extract.js';

/** The product code the gate holds: the engines, the Electron main and preload processes, and the renderer. */
export const GATED_DIRS: readonly string[] = ['engines', 'main', 'preload', 'renderer/src'];

export interface Reviewed {
  file: string;
  /** The pattern source (literal patterns) or the expression text (patterns built at run time). */
  source?: string;
  flags?: string;
  text?: string;
  reason: string;
}

export interface Problem {
  file: string;
  line: number;
  what: string;
}

/** Whether a reviewed entry is about this pattern: same file, and the same source and flags (or, for a pattern built at run time, an expression text it starts). */
export function reviews(v: Reviewed, r: FoundRegex): boolean {
  return v.file === r.file && (r.source === null ? v.text !== undefined && r.text.startsWith(v.text) : v.source === r.source && (v.flags ?? '') === r.flags);
}

export const digest = (source: string, flags: string): string =>
  createHash('sha256').update(`${flags}\u0000${source}`).digest('hex').slice(0, 24);

export function loadJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export async function gate(
  root: string,
  dirs: readonly string[],
  reviewed: readonly Reviewed[],
  verifiedSafe: ReadonlySet<string>,
  extra: readonly FoundRegex[] = [],
): Promise<{ problems: Problem[]; checkedNow: number; total: number; stale: Reviewed[] }> {
  const found: FoundRegex[] = [...extra];
  for (const dir of dirs) for (const file of listSources(root, dir)) found.push(...extractRegexes(root, file));
  const isReviewed = (r: FoundRegex): boolean => reviewed.some((v) => reviews(v, r));
  const problems: Problem[] = [];
  const toCheck = new Map<string, FoundRegex[]>();
  for (const r of found) {
    if (isReviewed(r)) continue;
    if (r.source === null) {
      problems.push({ file: r.file, line: r.line, what: `pattern built at run time, not reviewed: ${r.text.slice(0, 120)}` });
      continue;
    }
    const key = digest(r.source, r.flags);
    if (verifiedSafe.has(key)) continue;
    const list = toCheck.get(key);
    if (list) list.push(r); else toCheck.set(key, [r]);
  }
  for (const sites of toCheck.values()) {
    const { source, flags } = sites[0] as { source: string; flags: string };
    const d = await check(source, flags, CHECK_PARAMS);
    if (d.status === 'safe') continue;
    const what = d.status === 'vulnerable'
      ? `vulnerable (${d.complexity.summary}), attack ${d.attack.pattern.slice(0, 120)}: /${source.slice(0, 120)}/${flags}`
      : `checker could not decide (${d.error.kind}): /${source.slice(0, 120)}/${flags}`;
    for (const s of sites) problems.push({ file: s.file, line: s.line, what });
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  // Reviewed entries that no longer name a pattern of the code (moved or rewritten).
  const stale = reviewed.filter((v) => !found.some((r) => reviews(v, r)));
  return { problems, checkedNow: toCheck.size, total: found.length, stale };
}
