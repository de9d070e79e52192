// Pure helpers of the hex view: rows, the visible window, offsets typed by the analyst, and which structure a byte belongs to.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';

export const BYTES_PER_ROW = 16;
/** Bytes read from the file at once around the visible rows (the view never holds more than two chunks). */
export const CHUNK_BYTES = 64 * 1024;

export function rowCount(size: number): number {
  return Math.ceil(size / BYTES_PER_ROW);
}

/** Rows to render for a scroll position: the visible ones plus `overscan` on each side. */
export function visibleRows(scrollTop: number, viewportHeight: number, rowHeight: number, total: number, overscan = 8): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(total, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}

const HEX = Array.from({ length: 256 }, (_v, i) => i.toString(16).padStart(2, '0'));

/** One row as hex pairs (a gap after eight) and printable ASCII (`.` for the rest). */
export function formatRow(bytes: Uint8Array): { hex: string; ascii: string } {
  let hex = '';
  let ascii = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    hex += `${i === 8 ? '  ' : i > 0 ? ' ' : ''}${HEX[b]}`;
    ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  }
  return { hex, ascii };
}

/** An offset as typed: `0x1a0`, `1a0h`, or decimal `416`. Null when it is not one, or not inside the file. */
export function parseOffset(text: string, size: number): number | null {
  const t = text.trim().toLowerCase();
  let n: number;
  if (/^0x[0-9a-f]{1,12}$/.test(t)) n = Number.parseInt(t.slice(2), 16);
  else if (/^[0-9a-f]{1,12}h$/.test(t)) n = Number.parseInt(t.slice(0, -1), 16);
  else if (/^\d{1,15}$/.test(t)) n = Number(t);
  else return null;
  return n >= 0 && n < size ? n : null;
}

export interface Region {
  readonly name: string;
  readonly kind: 'headers' | 'section' | 'overlay' | 'certificate';
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

/** The file's structures by file offset: headers, each section's raw data, the overlay, the certificate table (which lies inside the overlay). */
export function regionsOf(result: TriageResult): Region[] {
  const out: Region[] = [];
  const sections = result.pe.sections.filter((s) => s.raw_size > 0).sort((a, b) => a.raw_offset - b.raw_offset);
  const firstData = sections[0]?.raw_offset ?? result.size;
  if (firstData > 0) out.push({ name: 'headers', kind: 'headers', start: 0, end: Math.min(firstData, result.size) });
  for (const s of sections) out.push({ name: s.name || `section ${s.index}`, kind: 'section', start: s.raw_offset, end: Math.min(result.size, s.raw_offset + s.raw_size) });
  const cert = result.pe.certificate;
  if (cert) out.push({ name: 'certificate table', kind: 'certificate', start: cert.offset, end: Math.min(result.size, cert.offset + cert.size) });
  const overlay = result.pe.overlay;
  if (overlay) out.push({ name: 'overlay', kind: 'overlay', start: overlay.offset, end: overlay.offset + overlay.size });
  return out;
}

/** The most specific region holding `offset` (a certificate table before the overlay around it), or null. */
export function regionAt(regions: readonly Region[], offset: number): Region | null {
  let best: Region | null = null;
  for (const r of regions) if (offset >= r.start && offset < r.end && (best === null || r.end - r.start < best.end - best.start)) best = r;
  return best;
}
