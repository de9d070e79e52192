// Pure helpers behind the verdict page and the charts: severity order, findings grouped by file, chart scales, the attack-chain layout.
import type { AttackChain, Decision, ScanFinding, Severity } from '../../../../../engines/core/contracts/pkgscan';

export const SEVERITIES: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical'];
export const DECISIONS: readonly Decision[] = ['allow', 'warn', 'block'];

export function severityRank(s: Severity | string): number {
  const i = (SEVERITIES as readonly string[]).indexOf(s);
  return i === -1 ? -1 : i;
}

export function worst(list: readonly (Severity | string)[]): Severity {
  let best = 0;
  for (const s of list) best = Math.max(best, severityRank(s));
  return SEVERITIES[best] ?? 'info';
}

export interface FileGroup {
  /** Path inside the package; null for package-level findings (metadata, provenance). */
  readonly file: string | null;
  readonly severity: Severity;
  /** Worst first, then by line. */
  readonly findings: readonly ScanFinding[];
}

/**
 * Findings grouped by the file they are in: package-level findings first, then files by their worst finding
 * (worst first) and path; inside a file, by line (package-level: worst first).
 */
export function groupFindingsByFile(findings: readonly ScanFinding[]): FileGroup[] {
  const byFile = new Map<string | null, ScanFinding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const groups: FileGroup[] = [...byFile.entries()].map(([file, list]) => ({
    file,
    severity: worst(list.map((f) => f.severity)),
    findings: [...list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || severityRank(b.severity) - severityRank(a.severity) || a.code.localeCompare(b.code)),
  }));
  return groups.sort((a, b) => {
    if (a.file === null) return b.file === null ? 0 : -1;
    if (b.file === null) return 1;
    return severityRank(b.severity) - severityRank(a.severity) || a.file.localeCompare(b.file);
  });
}

/** A maximum for an axis: the next 1, 2 or 5 times a power of ten at or above `max` (1 for nothing). */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/** Maps [d0, d1] onto [r0, r1], clamped; a zero-width domain maps to r0. */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  return (v: number) => {
    if (d1 === d0 || !Number.isFinite(v)) return r0;
    const t = Math.min(1, Math.max(0, (v - d0) / (d1 - d0)));
    return r0 + t * (r1 - r0);
  };
}

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Bar length in px (0 only for a zero value; a non-zero value is at least 1 px, so it is seen). */
  readonly length: number;
}

/** Horizontal bars scaled to `width` px against `max` (default: the largest value, rounded up by niceMax unless `exact`). */
export function scaleBars(items: readonly { label: string; value: number }[], width: number, max?: number): Bar[] {
  const top = max ?? niceMax(Math.max(0, ...items.map((i) => i.value)));
  const to = linear(0, top, 0, width);
  return items.map((i) => {
    const v = Number.isFinite(i.value) && i.value > 0 ? i.value : 0;
    return { label: i.label, value: i.value, length: v === 0 ? 0 : Math.max(1, to(v)) };
  });
}

/** The risk dimensions in a fixed, readable order (known ones first, then any others by name), each 0..1. */
export function orderedDimensions(dims: Readonly<Record<string, number>>): { label: string; value: number }[] {
  const known = ['malicious_code', 'install_time', 'obfuscation', 'metadata', 'provenance', 'vulnerabilities'];
  const keys = [...known.filter((k) => k in dims), ...Object.keys(dims).filter((k) => !known.includes(k)).sort()];
  return keys.map((k) => ({ label: k.replace(/_/g, ' '), value: Math.min(1, Math.max(0, Number(dims[k]) || 0)) }));
}

export interface ChainBox {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly index: number;
}

/** Left-to-right boxes for a chain's steps, wrapping to a new row when `width` is used up; arrows join box i to i+1. */
export function chainLayout(chain: AttackChain, width: number, boxW = 180, boxH = 58, gap = 34): { boxes: ChainBox[]; height: number } {
  const perRow = Math.max(1, Math.floor((width + gap) / (boxW + gap)));
  const boxes = chain.steps.map((_, i) => ({ x: (i % perRow) * (boxW + gap), y: Math.floor(i / perRow) * (boxH + gap), w: boxW, h: boxH, index: i }));
  const rows = Math.max(1, Math.ceil(chain.steps.length / perRow));
  return { boxes, height: rows * boxH + (rows - 1) * gap };
}

/** The text of a box split into at most `lines` lines of about `chars` characters (the last one ends with an ellipsis when cut). */
export function wrapText(text: string, chars: number, lines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    const next = cur ? `${cur} ${w}` : w;
    if (next.length <= chars) cur = next;
    else {
      if (cur) out.push(cur);
      cur = w.length > chars ? `${w.slice(0, chars - 1)}…` : w;
    }
    if (out.length === lines) break;
  }
  if (out.length < lines && cur) out.push(cur);
  const used = out.join(' ').replace(/…/g, '').length;
  if (out.length === lines && used < text.replace(/\s+/g, ' ').trim().length) {
    const last = out[lines - 1] ?? '';
    out[lines - 1] = last.endsWith('…') ? last : `${last.slice(0, Math.max(0, chars - 1))}…`;
  }
  return out;
}

export interface ScatterPoint {
  readonly id: string;
  readonly x: number;
  readonly y: number;
}

/**
 * EPSS (0..1, x) against CVSS (0..10, y) in a `w` x `h` plot with `pad` px margins; advisories without both are
 * left out (returned in `missing`), never drawn at zero.
 */
export function scatter(items: readonly { id: string; epss: number | null; score: number | null }[], w: number, h: number, pad: number): { points: ScatterPoint[]; missing: string[] } {
  const x = linear(0, 1, pad, w - pad);
  const y = linear(0, 10, h - pad, pad);
  const points: ScatterPoint[] = [];
  const missing: string[] = [];
  for (const i of items) {
    if (i.epss === null || i.score === null || !Number.isFinite(i.epss) || !Number.isFinite(i.score)) missing.push(i.id);
    else points.push({ id: i.id, x: x(i.epss), y: y(i.score) });
  }
  return { points, missing };
}

/** Page window text: "1–50 of 120", "no entries". */
export function pageText(offset: number, limit: number, total: number): string {
  return total === 0 ? 'none' : `${offset + 1}–${Math.min(total, offset + limit)} of ${total}`;
}
