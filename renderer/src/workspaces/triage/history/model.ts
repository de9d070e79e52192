// The files analysed in this window (newest first, one entry per file content, bounded), and the analyses the service
// keeps (GET /api/analyses): how a stored one is shown, and the filters the History panel sends.
import type { StoredAnalysis, TriageResult, TriageVerdict } from '../../../../../engines/core/contracts/petriage.js';

/** Entries kept; each holds a full result (and the picked file, for the hex view) in memory. */
export const MAX_HISTORY = 20;
/** Stored analyses per page of the History panel. */
export const STORED_PAGE = 20;

export interface HistoryEntry {
  readonly id: number;
  readonly fileLabel: string;
  readonly result: TriageResult;
  /** The file as picked (read again by the hex view); it lives only as long as the page. */
  readonly file: Blob | null;
  readonly at: string;
  /** Set when the entry was read back from the service's store (GET /api/analyses/{id}); the store keeps no bytes. */
  readonly storedId?: string;
}

/** Adds `entry` in front; an earlier analysis of the same bytes (same SHA-256) is replaced, and the oldest fall off. */
export function addToHistory(list: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...list.filter((e) => e.result.sha256 !== entry.result.sha256)].slice(0, MAX_HISTORY);
}

/**
 * A stored analysis as the result view shows it. The store keeps no file bytes; when this window still holds a file
 * with the same SHA-256 (the same bytes), the hex view reads that one, else it says the bytes are not kept.
 */
export function entryFromStored(stored: StoredAnalysis, inWindow: readonly HistoryEntry[]): HistoryEntry {
  const same = inWindow.find((e) => e.file !== null && e.result.sha256 === stored.result.sha256);
  return {
    id: 0,
    fileLabel: (stored.fileName !== null ? visibleName(stored.fileName) : undefined) ?? same?.fileLabel ?? `Stored analysis of ${shortSha(stored.sha256)}`,
    result: stored.result,
    file: same?.file ?? null,
    at: stored.createdAt,
    storedId: stored.id,
  };
}

/** The start of a SHA-256 as rows and labels show it: 16 hex digits and an ellipsis. */
export function shortSha(sha256: string): string {
  return `${sha256.slice(0, 16)}…`;
}

/** The longest name the service keeps (engines/petriage/schemas.ts MAX_FILE_NAME), in characters after trimming. */
export const MAX_FILE_NAME = 255;

/**
 * The `name` sent with an upload (POST /api/analyze?name=), by the service's rules: the base name, trimmed, at most
 * MAX_FILE_NAME characters, no control characters. A name the service would refuse is not sent (undefined): the file is
 * still triaged, and its stored analysis has no name (the window's own entry keeps the picked file's name). The renderer
 * may import no engine code, so this copies petriage's fileNameSchema; test/upload-name.test.ts holds the two equal.
 */
export function uploadName(picked: string): string | undefined {
  for (let i = 0; i < picked.length; i++) {
    const c = picked.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return undefined;
  }
  const base = picked.replace(/^.*[\\/]/su, '').trim();
  if (base === '' || base === '.' || base === '..' || [...base].length > MAX_FILE_NAME) return undefined;
  return base;
}

/** Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE makes `gpj.exe` read `exe.jpg`): shown as their code, never obeyed. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A stored file name as the History panel prints it: bidirectional controls written out as `⟨U+202E⟩` so a name cannot disguise its extension. */
export function visibleName(name: string): string {
  return name.replace(BIDI_CONTROL, (ch) => `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** A key that changes whenever another entry is shown (the hex view and rule editor start afresh on it). */
export function entryKey(e: HistoryEntry): string {
  return e.storedId !== undefined ? `stored:${e.storedId}` : `window:${e.id}`;
}

export const SHA256 = /^[0-9a-f]{64}$/i;

export interface StoredFilter {
  readonly verdict: TriageVerdict | '';
  /** What the analyst typed: a part of the file name, or a SHA-256 or its start (GET /api/analyses?q= matches either). */
  readonly text: string;
}

/** The query of GET /api/analyses for a filter and page, or a sentence saying why the box cannot be sent (the route's own limits). */
export function storedQuery(filter: StoredFilter, offset: number): { readonly query: Record<string, string | number> } | { readonly problem: string } {
  const text = filter.text.trim();
  if ([...text].length > MAX_FILE_NAME) return { problem: `A file name part or SHA-256 start: at most ${MAX_FILE_NAME} characters.` };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return { problem: 'A file name part or SHA-256 start cannot hold control characters.' };
  }
  return { query: { limit: STORED_PAGE, offset, ...(filter.verdict !== '' ? { verdict: filter.verdict } : {}), ...(text !== '' ? { q: text } : {}) } };
}

/** `2026-11-27 06:12 UTC` from an ISO time (the store writes UTC). */
export function storedWhen(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
}

/** The index of the row focus moves to on an arrow, Home or End key in a list of `n` rows, or null for other keys. */
export function rowAfterKey(key: string, at: number, n: number): number | null {
  if (n === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return Math.min(n - 1, at + 1);
    case 'ArrowUp':
      return Math.max(0, at - 1);
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}
