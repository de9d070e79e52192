// The files analysed in this window: newest first, one entry per file content, bounded.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';

/** Entries kept; each holds a full result (and the picked file, for the hex view) in memory. */
export const MAX_HISTORY = 20;

export interface HistoryEntry {
  readonly id: number;
  readonly fileLabel: string;
  readonly result: TriageResult;
  /** The file as picked (read again by the hex view); it lives only as long as the page. */
  readonly file: Blob | null;
  readonly at: string;
}

/** Adds `entry` in front; an earlier analysis of the same bytes (same SHA-256) is replaced, and the oldest fall off. */
export function addToHistory(list: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...list.filter((e) => e.result.sha256 !== entry.result.sha256)].slice(0, MAX_HISTORY);
}
