// Seeded mutations of a text artefact (log lines, JSON lines, CSV) for the seeded fuzz tests: bit
// flips, byte runs, truncation at or near line ends, duplicated and reordered lines, numbers made huge or odd, deep
// JSON nesting and long runs without a line end, invalid UTF-8 and controls, separators and quotes added or removed.

type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);

/** A mutated copy of `src` and the mutations applied. */
export function mutateText(src: Uint8Array, r: Rand): { bytes: Uint8Array; how: string } {
  let d = Uint8Array.from(src);
  const hows: string[] = [];
  const lineStarts = (): number[] => {
    const s = [0];
    for (let i = 0; i < d.length; i++) if (d[i] === 0x0a) s.push(i + 1);
    return s;
  };
  const steps = 1 + int(r, 3);
  for (let s = 0; s < steps; s++) {
    const kind = int(r, 9);
    if (d.length === 0) break;
    if (kind === 0) {
      const n = 1 + int(r, 16);
      for (let i = 0; i < n; i++) d[int(r, d.length)]! ^= 1 << int(r, 8);
      hows.push('flip');
    } else if (kind === 1) {
      const at = int(r, d.length);
      d.fill([0, 0xff, 0x22, 0x0d, 0x2c][int(r, 5)]!, at, Math.min(d.length, at + 1 + int(r, 64)));
      hows.push('run');
    } else if (kind === 2) {
      const starts = lineStarts();
      const at = r() < 0.5 ? starts[int(r, starts.length)]! : int(r, d.length);
      d = d.slice(0, Math.max(0, at + int(r, 5) - 2));
      hows.push('cut');
    } else if (kind === 3) {
      // Duplicate or reorder lines.
      const starts = lineStarts();
      const a = int(r, starts.length);
      const b = int(r, starts.length);
      const line = (i: number): Uint8Array => d.subarray(starts[i]!, starts[i + 1] ?? d.length);
      const la = line(a);
      const lb = line(b);
      const parts = r() < 0.5 ? [d.subarray(0, starts[b]!), la, d.subarray(starts[b]!)] : [lb, d, la];
      d = Buffer.concat(parts);
      hows.push('lines');
    } else if (kind === 4) {
      // A number replaced with a huge or odd one.
      const text = Buffer.from(d).toString('latin1');
      const nums = [...text.matchAll(/\d+/g)];
      if (nums.length === 0) continue;
      const m = nums[int(r, nums.length)]!;
      const v = ['99999999999999999999999', '0', '-1', '1e308', '1e400', 'NaN', 'Infinity', '4294967296', '9007199254740993', '-0', '0x7fffffff'][int(r, 11)]!;
      d = Buffer.from(text.slice(0, m.index) + v + text.slice(m.index + m[0].length), 'latin1');
      hows.push('number');
    } else if (kind === 5 && r() < 0.5) {
      // A number replaced with balanced deep nesting (a valid JSON value when the number was one).
      const text = Buffer.from(d).toString('latin1');
      const nums = [...text.matchAll(/\d+/g)];
      if (nums.length === 0) continue;
      const m = nums[int(r, nums.length)]!;
      const n = 50 + int(r, 5000);
      const [open, close] = r() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
      d = Buffer.from(text.slice(0, m.index) + open.repeat(n) + '1' + close.repeat(n) + text.slice(m.index + m[0].length), 'latin1');
      hows.push('nest');
    } else if (kind === 5) {
      // Unbalanced deep nesting (JSON brackets) or a long run without a line end.
      const at = int(r, d.length);
      const n = 1000 + int(r, 50000);
      const fill = ['[', '{"a":', '"', ',', 'x', '\\'][int(r, 6)]!.repeat(n);
      d = Buffer.concat([d.subarray(0, at), Buffer.from(fill, 'latin1'), d.subarray(at)]);
      hows.push('deep');
    } else if (kind === 6) {
      // Invalid UTF-8 and stray controls.
      const at = int(r, d.length);
      const junk = [[0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf], [0x0d], [0x00], [0x1b, 0x5b], [0xf4, 0x90, 0x80, 0x80]][int(r, 8)]!;
      d = Buffer.concat([d.subarray(0, at), Uint8Array.from(junk), d.subarray(at)]);
      hows.push('bytes');
    } else if (kind === 7) {
      // A field separator or quote inserted or removed.
      const at = int(r, d.length);
      const c = [0x2c, 0x09, 0x22, 0x3d, 0x20, 0x7c, 0x27, 0x3a][int(r, 8)]!;
      d = r() < 0.5 ? Buffer.concat([d.subarray(0, at), Uint8Array.of(c), d.subarray(at)]) : Buffer.concat([d.subarray(0, at), d.subarray(at + 1)]);
      hows.push('sep');
    } else {
      // A line's fields shuffled between lines (a value moved to another key).
      const starts = lineStarts();
      const a = starts[int(r, starts.length)]!;
      const b = starts[int(r, starts.length)]!;
      const len = 1 + int(r, 40);
      const piece = d.slice(a, a + len);
      d.set(piece.subarray(0, Math.max(0, Math.min(piece.length, d.length - b))), b);
      hows.push('splice');
    }
  }
  return { bytes: d, how: hows.join('+') };
}

