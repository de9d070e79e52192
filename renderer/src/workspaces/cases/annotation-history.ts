// What changed from one version of an event's annotation to the next: tags added and removed, and the note as a word diff (old and new text in full when the note is too long to compare word by word).
import type { AnnotationVersion } from './types';

export interface NotePart {
  readonly kind: 'same' | 'added' | 'removed';
  readonly text: string;
}

export interface VersionChange {
  /** The event's first version: everything in it is new. */
  readonly first: boolean;
  /** No tag and no note: the annotation was cleared (the earlier versions stay). */
  readonly cleared: boolean;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** The note's change, in order; null when the note did not change. */
  readonly note: readonly NotePart[] | null;
}

/** Words compared at most (the product of both notes' word counts); longer notes are shown as old and new text. */
export const MAX_DIFF_CELLS = 250_000;

/** Words, runs of spaces and single punctuation marks, so joining them gives the text back. */
function tokens(s: string): string[] {
  return s.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** Kept spaces or punctuation alone between two changes are shown as changed too, so a change reads as whole phrases, not a word here and there. */
function phrases(parts: readonly NotePart[]): NotePart[] {
  const out: NotePart[] = [];
  parts.forEach((p, i) => {
    const between = i > 0 && i < parts.length - 1 && parts[i - 1]?.kind !== 'same' && parts[i + 1]?.kind !== 'same';
    if (p.kind === 'same' && between && !/[\p{L}\p{N}]/u.test(p.text)) out.push({ kind: 'removed', text: p.text }, { kind: 'added', text: p.text });
    else out.push(p);
  });
  return out;
}

/** Between two kept runs, every removed word as one part, then every added word as one part. */
function merged(parts: readonly NotePart[]): NotePart[] {
  const out: NotePart[] = [];
  let removed = '';
  let added = '';
  const flush = (): void => {
    if (removed !== '') out.push({ kind: 'removed', text: removed });
    if (added !== '') out.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  for (const p of parts) {
    if (p.kind === 'removed') removed += p.text;
    else if (p.kind === 'added') added += p.text;
    else {
      flush();
      const last = out[out.length - 1];
      if (last?.kind === 'same') out[out.length - 1] = { kind: 'same', text: last.text + p.text };
      else out.push(p);
    }
  }
  flush();
  return out;
}

/** The old note to the new one as kept, removed and added words (a longest common subsequence of the words). */
export function noteDiff(before: string, after: string): NotePart[] {
  if (before === after) return before === '' ? [] : [{ kind: 'same', text: before }];
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_DIFF_CELLS) return merged([...(before !== '' ? [{ kind: 'removed' as const, text: before }] : []), ...(after !== '' ? [{ kind: 'added' as const, text: after }] : [])]);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const parts: NotePart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if (j < b.length && (i === a.length || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) {
      parts.push({ kind: 'added', text: b[j] as string });
      j++;
    } else {
      parts.push({ kind: 'removed', text: a[i] as string });
      i++;
    }
  }
  return merged(phrases(merged(parts)));
}

/** What `v` changed from `before` (the version before it; undefined for the first version, or when it is not loaded and `v` is version 1). */
export function versionChange(before: AnnotationVersion | undefined, v: AnnotationVersion): VersionChange {
  const cleared = v.tags.length === 0 && v.note === '';
  if (before === undefined) return { first: true, cleared, added: v.tags, removed: [], note: v.note === '' ? null : [{ kind: 'added', text: v.note }] };
  const had = new Set(before.tags);
  const has = new Set(v.tags);
  return {
    first: false,
    cleared,
    added: v.tags.filter((t) => !had.has(t)),
    removed: before.tags.filter((t) => !has.has(t)),
    note: before.note === v.note ? null : noteDiff(before.note, v.note),
  };
}

/** "1 version", "3 versions". */
export function versionsLabel(n: number): string {
  return `${n.toLocaleString('en')} ${n === 1 ? 'version' : 'versions'}`;
}
