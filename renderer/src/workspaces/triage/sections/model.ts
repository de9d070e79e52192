// Pure helpers of the Sections tab: the entropy plot laid out over the file.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';

export interface PlotBar {
  readonly label: string;
  readonly kind: 'section' | 'overlay' | 'headers';
  /** 0..1 of the file's length. */
  readonly x: number;
  readonly width: number;
  /** Bits per byte, null when unknown. */
  readonly entropy: number | null;
  readonly offset: number;
  readonly size: number;
}

/** One bar per stretch of the file: headers, each section's raw data (by file offset), and the overlay; widths are shares of the file. */
export function entropyBars(result: TriageResult): PlotBar[] {
  const size = Math.max(1, result.size);
  const bars: PlotBar[] = [];
  const sections = result.pe.sections.filter((s) => s.raw_size > 0 && s.raw_offset < result.size).sort((a, b) => a.raw_offset - b.raw_offset);
  const first = sections[0]?.raw_offset ?? result.size;
  if (first > 0) bars.push({ label: 'headers', kind: 'headers', x: 0, width: Math.min(first, size) / size, entropy: result.pe.headers_entropy ?? null, offset: 0, size: Math.min(first, size) });
  for (const s of sections) {
    const len = Math.min(s.raw_size, result.size - s.raw_offset);
    bars.push({ label: s.name || `#${s.index}`, kind: 'section', x: s.raw_offset / size, width: len / size, entropy: s.entropy, offset: s.raw_offset, size: len });
  }
  const o = result.pe.overlay;
  if (o) bars.push({ label: 'overlay', kind: 'overlay', x: o.offset / size, width: o.size / size, entropy: o.entropy ?? null, offset: o.offset, size: o.size });
  return bars;
}
