// Seeded mutations of tar, tar.gz and zip archives (plain, deflated, zip64, data descriptors, pax and GNU long names,
// links, a nested archive) through readArchive and the zip reader: a result within the limits, never a throw.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { mutate } from '../../../tools/fuzz/fuzz.js';
import { mulberry32 } from '../random.js';
import { buildTar, buildZip, paxRecord } from './build.fixture.js';
import { DEFAULT_ARCHIVE_LIMITS, readArchive } from './read.js';
import { FileSource, memorySource, ZipArchive } from './zipfile.js';

const text = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i} of a member\n`).join('');
const members = [
  { name: 'package/package.json', data: '{"name":"fuzz","version":"1.0.0"}' },
  { name: 'package/index.js', data: text(80) },
  { name: 'package/data.bin', data: new Uint8Array(700).fill(0x7f) },
];
const tar = buildTar([
  ...members,
  { name: 'PaxHeader', type: 'x', data: paxRecord('path', `package/${'d/'.repeat(70)}long.txt`) },
  { name: 'short', data: 'pax named' },
  { name: '././@LongLink', type: 'L', data: `package/${'e/'.repeat(60)}gnu.txt\0` },
  { name: 'gnu', data: 'gnu named' },
  { name: 'package/bin', type: '5', mode: 0o755 },
  { name: 'package/link', type: '2', linkname: '../package.json' },
  { name: 'package/hard', type: '1', linkname: 'package/index.js' },
]);
const zipMembers = members.map((m, i) => ({ ...m, deflate: i % 2 === 0, unixMode: 0o100644 }));
const SEEDS: readonly Uint8Array[] = [
  tar,
  gzipSync(tar),
  buildZip(zipMembers),
  buildZip(zipMembers, undefined, { zip64: true }),
  buildZip(zipMembers, undefined, { descriptor: true }),
  buildZip([...zipMembers.slice(0, 1), { name: 'package/inner.tgz', data: gzipSync(buildTar(members)) }]),
];

const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-archive-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seeded archive mutations', () => {
  it('the seeds read whole', () => {
    for (const s of SEEDS) expect(readArchive(s).complete).toBe(true);
  });

  it('200 mutated archives through readArchive: entries within the limits and issues, never a throw', () => {
    const rand = mulberry32(0x4a4);
    let damaged = 0;
    for (let i = 0; i < 200; i++) {
      const input = mutate(rand, SEEDS[i % SEEDS.length]!, SEEDS[(i * 7 + 3) % SEEDS.length]!, 1 << 20);
      const r = readArchive(input, { maxTotalBytes: 4 << 20, maxEntryBytes: 1 << 20 });
      expect(r.entries.length).toBeLessThanOrEqual(DEFAULT_ARCHIVE_LIMITS.maxEntries);
      expect(r.totalBytes).toBeLessThanOrEqual(4 << 20);
      for (const e of r.entries) expect(e.data?.length ?? 0).toBeLessThanOrEqual(1 << 20);
      if (!r.complete) damaged++;
    }
    expect(damaged).toBeGreaterThan(20);
  });

  it('200 mutated zips through the zip reader, in memory and from a file: members read or refused, never a throw', () => {
    const rand = mulberry32(0x21b);
    const zips = SEEDS.slice(2);
    const file = path.join(dir, 'in.zip');
    for (let i = 0; i < 200; i++) {
      const input = mutate(rand, zips[i % zips.length]!, zips[(i + 1) % zips.length]!, 1 << 20);
      writeFileSync(file, input);
      const sources = [memorySource(input), new FileSource(file)];
      const seen = sources.map((src) => {
        try {
          const z = ZipArchive.open(src);
          const out: unknown[] = [z.problems.map((p) => p.code)];
          for (const m of z.members()) {
            if (m.size > 1 << 20) continue;
            const d = z.read(m);
            out.push([m.name, 'data' in d ? d.data.length : d.refusal.code, z.linkTarget(m)]);
          }
          return out;
        } finally {
          src.close?.();
        }
      });
      // the file is read through windows, the memory copy whole: the same members and refusals both ways
      expect(seen[1]).toEqual(seen[0]);
    }
  });
});
