// A bounded, seeded fuzz of the flow CSV reader, in memory and streamed from a file: mutated corpus CSVs (flips, byte
// runs, cuts at line ends, duplicated and swapped lines, huge and non-finite numbers, quotes and separators, invalid
// UTF-8) give a table with skipped-line warnings, or a validation_failed refusal that names no path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { mulberry32 } from '../../core/random.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { parseFlowCsv, readFlowCsvFile, type FlowCsvOptions, type FlowTable } from './csv.js';
import { UNSW_RAW_HEADER } from './datasets.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);

function lineStarts(d: Uint8Array): number[] {
  const s = [0];
  for (let i = 0; i < d.length; i++) if (d[i] === 0x0a) s.push(i + 1);
  return s;
}

/** One to three seeded mutations of a CSV file's bytes. */
function mutate(src: Uint8Array, r: Rand): Uint8Array {
  let d: Uint8Array = Uint8Array.from(src);
  for (let s = 1 + int(r, 3); s > 0 && d.length > 0; s--) {
    const kind = int(r, 7);
    const at = int(r, d.length);
    if (kind === 0) for (let i = 1 + int(r, 16); i > 0; i--) d[int(r, d.length)]! ^= 1 << int(r, 8);
    else if (kind === 1) d.fill([0, 0xff, 0x22, 0x2c, 0x0d][int(r, 5)]!, at, at + 1 + int(r, 64));
    else if (kind === 2) {
      const starts = lineStarts(d);
      d = d.slice(0, Math.max(0, starts[int(r, starts.length)]! + int(r, 5) - 2));
    } else if (kind === 3) {
      const starts = lineStarts(d);
      const a = int(r, starts.length);
      const line = d.subarray(starts[a]!, starts[a + 1] ?? d.length);
      const b = starts[int(r, starts.length)]!;
      d = Buffer.concat([d.subarray(0, b), line, d.subarray(b)]);
    } else if (kind === 4) {
      const text = Buffer.from(d).toString('latin1');
      const nums = [...text.matchAll(/\d+/g)];
      if (nums.length === 0) continue;
      const m = nums[int(r, nums.length)]!;
      const v = ['99999999999999999999999', '1e400', '-1e400', 'NaN', 'Infinity', '-0', '0x10', ''][int(r, 8)]!;
      d = Buffer.from(text.slice(0, m.index) + v + text.slice(m.index + m[0].length), 'latin1');
    } else if (kind === 5) {
      const c = [0x2c, 0x22, 0x0d, 0x0a, 0x09][int(r, 5)]!;
      d = r() < 0.5 ? Buffer.concat([d.subarray(0, at), Uint8Array.of(c), d.subarray(at)]) : Buffer.concat([d.subarray(0, at), d.subarray(at + 1)]);
    } else {
      const junk = [[0xc3], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf], [0x00]][int(r, 4)]!;
      d = Buffer.concat([d.subarray(0, at), Uint8Array.from(junk), d.subarray(at)]);
    }
  }
  return d;
}

function checkTable(t: FlowTable): void {
  expect(t.y.length).toBe(t.rows);
  expect(t.category.length).toBe(t.rows);
  expect(t.warnings.length).toBeLessThanOrEqual(100);
}

function checkRefusal(err: unknown): void {
  expect(err).toBeInstanceOf(VitrineError);
  expect((err as VitrineError).code).toBe('validation_failed');
  expect((err as VitrineError).message).not.toContain(dir);
}

corpus('flow CSV reader under seeded mutation', () => {
  it('200 mutated CSVs, in memory and from a file: a table with warnings or a validation_failed refusal', async () => {
    const seeds: [Uint8Array, FlowCsvOptions][] = [
      [readFileSync(corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv')), {}],
      [readFileSync(corpusPath('flows', 'unsw-nb15', 'UNSW_NB15_testing-set.head40.csv')), {}],
      [Buffer.from(readFileSync(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv'), 'utf8').split('\n').slice(0, 40).join('\n')), { header: UNSW_RAW_HEADER }],
    ];
    const random = mulberry32(0xf10);
    let tables = 0;
    for (let i = 0; i < 200; i++) {
      const [src, opts] = seeds[i % seeds.length]!;
      const bytes = mutate(src, random);
      const file = path.join(dir, 'flows.csv');
      writeFileSync(file, bytes);
      let inMemory: FlowTable | null = null;
      try {
        inMemory = parseFlowCsv(Buffer.from(bytes).toString('utf8'), opts);
        checkTable(inMemory);
        tables++;
      } catch (err) {
        checkRefusal(err);
      }
      try {
        const streamed = await readFlowCsvFile(file, opts);
        checkTable(streamed);
        // Both readers agree on what they keep.
        expect(streamed.rows).toBe(inMemory?.rows);
      } catch (err) {
        if (!(err instanceof VitrineError)) throw err;
        checkRefusal(err);
        expect(inMemory).toBeNull();
      }
    }
    expect(tables).toBeGreaterThan(120);
  });
});
