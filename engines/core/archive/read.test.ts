// The in-memory archive reader on the real package corpus (checked against tar/unzip), on damaged copies, and on built attacks.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { buildTar, buildZip, paxRecord } from './build.fixture.js';
import { DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, readArchive, readNested } from './index.js';
import type { ArchiveReadResult } from './index.js';

interface TruthFile {
  readonly file: string;
}

const truth: readonly TruthFile[] = hasCorpora() ? (JSON.parse(readFileSync(corpusPath('packages', 'GROUND_TRUTH.json'), 'utf8')) as { files: TruthFile[] }).files : [];
const hasTool = (p: string): boolean => existsSync(p);
const codes = (r: ArchiveReadResult): string[] => r.issues.map((i) => i.code);

/** A seeded generator so damage tests are repeatable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.runIf(hasCorpora())('readArchive on the package corpus', () => {
  it('reads all 189 archives completely and lists the members tar lists', () => {
    expect(truth.length).toBe(189);
    const useTar = hasTool('/usr/bin/tar') || hasTool('/bin/tar');
    for (const f of truth) {
      // Bytes only: the malicious archives are never extracted or run.
      const bytes = readFileSync(corpusPath('packages', f.file));
      const r = readArchive(bytes);
      expect(r.format, f.file).toBe('tar.gz');
      expect(codes(r).filter((c) => !['duplicate_member', 'link_member'].includes(c)), f.file).toEqual([]);
      expect(r.complete, f.file).toBe(true);
      for (const e of r.entries) if (e.kind === 'file') expect(e.data?.length, e.path).toBe(e.size);
      if (useTar) {
        // The archive goes to tar on stdin and tar only lists (-t): nothing is written.
        const listed = execFileSync('tar', ['--quoting-style=literal', '-tzf', '-'], { input: bytes, env: { ...process.env, LC_ALL: 'C.UTF-8' }, maxBuffer: 64 * 1024 * 1024 })
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '');
        expect(r.entries.map((e) => e.path), f.file).toEqual(listed);
      }
    }
  });

  const samples = ['benign/npm/async-3.2.6.tgz', 'benign/pypi/maxminddb-2.2.0.tar.gz', 'benign/pypi/pymodbus-3.0.0.tar.gz'].concat(truth.filter((f) => f.file.startsWith('malicious/')).slice(0, 3).map((f) => f.file));

  it('keeps the members before a cut, at many cut points, and says the read is incomplete', () => {
    // How often each side of the checks below ran: a branch that never runs checks nothing.
    let reported = 0;
    let complete = 0;
    let compared = 0;
    for (const file of samples) {
      const bytes = readFileSync(corpusPath('packages', file));
      const full = readArchive(bytes);
      const tar = gunzipSync(bytes);
      for (const [label, source] of [
        ['gz', bytes],
        ['tar', new Uint8Array(tar)],
      ] as const) {
        for (let k = 1; k < 24; k++) {
          const cut = Math.floor((source.length * k) / 24);
          const r = readArchive(source.subarray(0, cut));
          // A cut inside the trailing end blocks loses nothing; any other cut must be reported.
          if (r.complete) {
            complete++;
            expect(r.entries.map((e) => e.path), `${file} ${label} cut ${cut}`).toEqual(full.entries.map((e) => e.path));
          } else {
            reported++;
            expect(r.issues.length).toBeGreaterThan(0);
          }
          // Every member read with data is the same member, at the same place, as in the full read.
          r.entries.forEach((e, i) => {
            if (e.data === undefined) return;
            compared++;
            const o = full.entries[i];
            expect(o?.path).toBe(e.path);
            expect(Buffer.compare(Buffer.from(o?.data ?? []), Buffer.from(e.data))).toBe(0);
          });
          if (label === 'tar' && k >= 12) expect(r.entries.filter((e) => e.data !== undefined).length).toBeGreaterThan(0);
        }
      }
    }
    expect(reported + complete).toBe(samples.length * 2 * 23);
    expect(reported).toBeGreaterThan(samples.length * 23);
    expect(compared).toBeGreaterThan(samples.length * 23);
  });

  it('survives random bit flips: never throws, and a flip in the gzip stream is always reported', () => {
    const next = rng(20261127);
    let flips = 0;
    let unreported = 0;
    for (const file of samples) {
      const bytes = readFileSync(corpusPath('packages', file));
      const full = readArchive(bytes);
      for (let n = 0; n < 12; n++) {
        const copy = Uint8Array.from(bytes);
        // Past the 10-byte gzip header, whose mtime/OS bytes no reader can check.
        const at = 10 + Math.floor(next() * (copy.length - 10));
        copy[at] = (copy[at] ?? 0) ^ (1 << Math.floor(next() * 8));
        const r = readArchive(copy);
        flips += 1;
        // Deflate data, CRC-32 and ISIZE cover every byte past the header: no flip there can go unnoticed.
        if (r.complete && r.issues.length === full.issues.length) unreported += 1;
      }
      const tar = Uint8Array.from(gunzipSync(bytes));
      for (let n = 0; n < 12; n++) {
        const copy = Uint8Array.from(tar);
        const at = Math.floor(next() * copy.length);
        copy[at] = (copy[at] ?? 0) ^ (1 << Math.floor(next() * 8));
        const r = readArchive(copy);
        // Tar has no checksum over data: a flip there is invisible, a flip in a header stops the read.
        expect(r.entries.length).toBeLessThanOrEqual(full.entries.length);
      }
    }
    expect(flips).toBe(samples.length * 12);
    expect(flips).toBeGreaterThan(0);
    expect(unreported).toBe(0);
  });
});

describe('readArchive formats and bad input', () => {
  it('detects formats by magic bytes, not names', () => {
    const tar = buildTar([{ name: 'a.txt', data: 'hello' }]);
    expect(detectArchiveFormat(tar)).toBe('tar');
    expect(detectArchiveFormat(gzipSync(tar))).toBe('gzip');
    expect(detectArchiveFormat(buildZip([{ name: 'a', data: 'x' }]))).toBe('zip');
    expect(detectArchiveFormat(new TextEncoder().encode('just text'))).toBeUndefined();
    expect(readArchive(gzipSync(tar)).format).toBe('tar.gz');
    const r = readArchive(tar);
    expect(r.format).toBe('tar');
    expect(new TextDecoder().decode(r.entries[0]?.data)).toBe('hello');
    expect(r.totalBytes).toBe(5);
  });

  it('gives corrupt, no entries, incomplete for bytes that are no archive, and never throws', () => {
    for (const junk of [new Uint8Array(0), new TextEncoder().encode('not an archive at all'), Uint8Array.from({ length: 2000 }, (_, i) => (i * 31) & 0xff), Uint8Array.of(0x1f, 0x8b), Uint8Array.of(0x50, 0x4b, 3, 4)]) {
      const r = readArchive(junk);
      expect(r.entries).toEqual([]);
      expect(r.complete).toBe(false);
      expect(r.issues.length).toBeGreaterThan(0);
    }
    expect(codes(readArchive(new TextEncoder().encode('not an archive')))).toEqual(['corrupt']);
    expect(() => readArchive('x' as unknown as Uint8Array)).toThrow(/Uint8Array/);
  });

  it('reads a lone gzip file as one member named by its header', () => {
    const r = readArchive(gzipSync(new TextEncoder().encode('plain text, not a tar')));
    expect(r.format).toBe('gzip');
    expect(r.entries.map((e) => e.path)).toEqual(['data']);
    expect(r.complete).toBe(true);
  });

  it('reads concatenated gzip members as one stream', () => {
    const tar = buildTar([{ name: 'a.txt', data: 'A' }, { name: 'b.txt', data: 'B' }]);
    const cut = 1024;
    const joined = Buffer.concat([gzipSync(tar.subarray(0, cut)), gzipSync(tar.subarray(cut))]);
    const r = readArchive(joined);
    expect(r.entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt']);
    expect(r.complete).toBe(true);
  });

  it('reports a bad tar checksum as corrupt and keeps the members before it', () => {
    const tar = buildTar([{ name: 'a.txt', data: 'A' }, { name: 'b.txt', data: 'B' }]);
    tar[1024 + 10] = 0x41;
    const r = readArchive(tar);
    expect(r.entries.map((e) => e.path)).toEqual(['a.txt']);
    expect(codes(r)).toEqual(['corrupt']);
    expect(r.complete).toBe(false);
  });
});

describe('readArchive against built attacks', () => {
  it('stops a gzip bomb at the limit (200 MB of zeros behind a tar header)', () => {
    const zeros = gzipSync(Buffer.alloc(10 * 1024 * 1024));
    const header = buildTar([{ name: 'bomb.bin', size: 200 * 1024 * 1024 }]).subarray(0, 512);
    // Twenty identical members of 10 MiB zeros: about 200 MiB from a few hundred KiB.
    const bomb = Buffer.concat([gzipSync(header), ...Array.from({ length: 20 }, () => zeros)]);
    const r = readArchive(bomb);
    expect(r.format).toBe('tar.gz');
    expect(codes(r)).toContain('ratio_too_high');
    expect(r.complete).toBe(false);
    expect(r.totalBytes).toBe(0);
    expect(r.entries.map((e) => e.path)).toEqual(['bomb.bin']);
    const loose = readArchive(bomb, { maxRatio: 1e9, maxTotalBytes: 8 * 1024 * 1024 });
    expect(codes(loose)).toContain('total_too_large');
    expect(loose.complete).toBe(false);
  });

  it('flags absolute and climbing paths but keeps them listed with their data', () => {
    const r = readArchive(buildTar([{ name: '../evil.sh', data: 'x' }, { name: '/etc/passwd', data: 'y' }, { name: 'C:\\win.ini', data: 'z' }, { name: '\\\\server\\share', data: 'w' }, { name: 'ok/../../up', data: 'v' }]));
    expect(r.entries.map((e) => e.path)).toEqual(['../evil.sh', '/etc/passwd', 'C:\\win.ini', '\\\\server\\share', 'ok/../../up']);
    expect(r.issues.map((i) => `${i.code}:${i.path ?? ''}`)).toEqual(['path_traversal:../evil.sh', 'absolute_path:/etc/passwd', 'absolute_path:C:\\win.ini', 'absolute_path:\\\\server\\share', 'path_traversal:ok/../../up']);
    expect(r.entries.every((e) => e.data !== undefined)).toBe(true);
    // Unsafe paths are flagged, not a reason to call the read incomplete.
    expect(r.complete).toBe(true);
  });

  it('lists link and device members without data', () => {
    const r = readArchive(buildTar([
      { name: 'link', type: '2', linkname: '/etc/shadow', size: 0 },
      { name: 'hard', type: '1', linkname: 'a.txt' },
      { name: 'dev', type: '3' },
      { name: 'fifo', type: '6' },
      { name: 'after.txt', data: 'still read' },
    ]));
    expect(r.entries.map((e) => [e.path, e.kind, e.linkTarget ?? '', e.data === undefined])).toEqual([
      ['link', 'symlink', '/etc/shadow', true],
      ['hard', 'hardlink', 'a.txt', true],
      ['dev', 'other', '', true],
      ['fifo', 'other', '', true],
      ['after.txt', 'file', '', false],
    ]);
    expect(codes(r)).toEqual(['link_member', 'link_member', 'device_member', 'device_member']);
  });

  it('flags duplicate paths', () => {
    const r = readArchive(buildTar([{ name: 'a', data: '1' }, { name: 'a', data: '2' }]));
    expect(codes(r)).toEqual(['duplicate_member']);
    expect(r.entries).toHaveLength(2);
  });

  it('stops at maxEntries', () => {
    const r = readArchive(buildTar(Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, data: 'x' }))), { maxEntries: 5 });
    expect(r.entries).toHaveLength(5);
    expect(codes(r)).toEqual(['too_many_members']);
    expect(r.complete).toBe(false);
  });

  it('lists a member over maxEntryBytes without data and reads on', () => {
    const r = readArchive(buildTar([{ name: 'big', data: 'x'.repeat(5000) }, { name: 'small', data: 'y' }]), { maxEntryBytes: 1000 });
    expect(r.entries.map((e) => [e.path, e.size, e.data === undefined])).toEqual([
      ['big', 5000, true],
      ['small', 1, false],
    ]);
    expect(codes(r)).toEqual(['member_too_large']);
    expect(r.complete).toBe(false);
  });

  it('reads PAX paths, GNU long names and base-256 sizes', () => {
    const long = `${'d'.repeat(120)}/${'e'.repeat(120)}/file.txt`;
    const r = readArchive(buildTar([
      { name: 'PaxHeader', type: 'x', data: paxRecord('path', long) + paxRecord('mtime', '1.5') },
      { name: 'truncated-name', data: 'pax' },
      { name: '././@LongLink', type: 'L', data: `${long}.gnu\0` },
      { name: 'short', data: 'gnu' },
      { name: 'b256', data: 'base256', base256: true },
    ]));
    expect(r.entries.map((e) => e.path)).toEqual([long, `${long}.gnu`, 'b256']);
    expect(r.entries.map((e) => new TextDecoder().decode(e.data))).toEqual(['pax', 'gnu', 'base256']);
    expect(r.complete).toBe(true);
  });

  it('refuses a malformed PAX header', () => {
    const r = readArchive(buildTar([{ name: 'PaxHeader', type: 'x', data: '99 path=x\n' }, { name: 'a', data: '1' }]));
    expect(codes(r)).toEqual(['corrupt']);
    expect(r.complete).toBe(false);
  });

  it('does not allocate for a tar header that claims a huge size', () => {
    const tar = buildTar([{ name: 'liar', size: 2 ** 40, base256: true }]);
    const r = readArchive(tar);
    expect(r.entries.map((e) => e.path)).toEqual(['liar']);
    expect(codes(r)).toContain('truncated');
  });

  it('nests only to maxNesting', () => {
    const inner = readArchive(gzipSync(buildTar([{ name: 'inner.tgz', data: gzipSync(buildTar([{ name: 'deep.txt', data: 'deep' }])) }])));
    const entry = inner.entries[0];
    if (entry === undefined) throw new Error('missing');
    const one = readNested(entry, 1);
    expect(one.entries.map((e) => [e.path, e.container])).toEqual([['deep.txt', 'inner.tgz']]);
    const tooDeep = readNested(entry, DEFAULT_ARCHIVE_LIMITS.maxNesting + 1);
    expect(codes(tooDeep)).toEqual(['nesting_too_deep']);
    expect(tooDeep.complete).toBe(false);
  });
});

/** The member names `unzip -Z1` lists (unzip needs a seekable file: the built, harmless zip goes to a temporary folder). */
function unzipListing(zip: Uint8Array): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-zip-'));
  try {
    const file = path.join(dir, 'built.zip');
    writeFileSync(file, zip);
    return execFileSync('unzip', ['-Z1', file]).toString('utf8').split('\n').filter((l) => l !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('readArchive on zip', () => {
  const hasUnzip = hasTool('/usr/bin/unzip');

  it('reads stored and deflated members, directories, and matches unzip -Z1', () => {
    const zip = buildZip([{ name: 'pkg/' }, { name: 'pkg/a.txt', data: 'stored' }, { name: 'pkg/b.txt', data: 'deflated '.repeat(50), deflate: true }]);
    const r = readArchive(zip);
    expect(r.format).toBe('zip');
    expect(r.complete).toBe(true);
    expect(r.entries.map((e) => [e.path, e.kind])).toEqual([
      ['pkg/', 'directory'],
      ['pkg/a.txt', 'file'],
      ['pkg/b.txt', 'file'],
    ]);
    expect(new TextDecoder().decode(r.entries[2]?.data)).toBe('deflated '.repeat(50));
    if (hasUnzip) expect(r.entries.map((e) => e.path)).toEqual(unzipListing(zip));
  });

  it('reads an empty zip', () => {
    const r = readArchive(buildZip([]));
    expect(r).toMatchObject({ format: 'zip', entries: [], issues: [], complete: true });
  });

  it('refuses overlapping members (two directory records over the same bytes)', () => {
    const zip = buildZip([{ name: 'payload', data: 'A'.repeat(1000), deflate: true }], (records) => {
      const r0 = records[0];
      if (r0 === undefined) throw new Error('missing');
      return [
        { name: 'one', localOffset: r0.localOffset, index: 0 },
        { name: 'two', localOffset: r0.localOffset, index: 0 },
      ];
    });
    const r = readArchive(zip);
    expect(r.entries.map((e) => [e.path, e.data === undefined])).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect(codes(r)).toEqual(['overlapping_members', 'overlapping_members']);
    expect(r.complete).toBe(false);
  });

  it('refuses a member whose data runs over the next local header (the quoted-overlap bomb)', () => {
    const zip = buildZip([{ name: 'a', data: 'A'.repeat(100) }, { name: 'b', data: 'B'.repeat(100) }], (records) =>
      records.map((r, index) => ({ name: r.name, localOffset: r.localOffset, index, ...(index === 0 ? { compressedSize: r.csize + 80 } : {}) })),
    );
    const r = readArchive(zip);
    expect(codes(r)).toEqual(['overlapping_members', 'overlapping_members']);
    expect(r.entries.every((e) => e.data === undefined)).toBe(true);
  });

  it('reads zip64 records and data descriptors, as unzip does', () => {
    expect.hasAssertions();
    for (const options of [{ zip64: true }, { descriptor: true }, { zip64: true, descriptor: true }]) {
      const zip = buildZip([{ name: 'one.txt', data: 'first' }, { name: 'two.txt', data: 'second '.repeat(30), deflate: true }], undefined, options);
      const r = readArchive(zip);
      expect(r.issues, JSON.stringify(options)).toEqual([]);
      expect(r.entries.map((e) => new TextDecoder().decode(e.data))).toEqual(['first', 'second '.repeat(30)]);
      if (hasUnzip) expect(unzipListing(zip)).toEqual(['one.txt', 'two.txt']);
    }
  });

  it('takes a zip64 size or offset past 2^53 - 1 as a damaged directory record, not an inexact size (a fuzz finding)', () => {
    // Each directory record's zip64 extra field holds the size, compressed size and offset, 8 bytes each; the second
    // record's size gets 0xff in its top byte (over 8 PiB, past any exact number).
    for (const field of [0, 8, 16]) {
      const zip = buildZip([{ name: 'one.txt', data: 'first' }, { name: 'two.txt', data: 'second' }, { name: 'three.txt', data: 'third' }], undefined, { zip64: true });
      const dv = new DataView(zip.buffer);
      let at = -1;
      for (let i = 0, seen = 0; i + 4 <= zip.length; i++) if (dv.getUint32(i, true) === 0x02014b50 && seen++ === 1) at = i;
      const extra = at + 46 + dv.getUint16(at + 28, true);
      expect(dv.getUint16(extra, true)).toBe(1);
      zip[extra + 4 + field + 7] = 0xff;
      const r = readArchive(zip);
      expect(r.entries.map((e) => [e.path, new TextDecoder().decode(e.data)]), `field ${field}`).toEqual([['one.txt', 'first']]);
      expect(codes(r)).toEqual(['corrupt']);
      expect(r.complete).toBe(false);
    }
  });

  it('lists an encrypted member without data', () => {
    const r = readArchive(buildZip([{ name: 'secret', data: 'xx', encrypted: true }, { name: 'open', data: 'ok' }]));
    expect(r.entries.map((e) => [e.path, e.data === undefined])).toEqual([
      ['secret', true],
      ['open', false],
    ]);
    expect(codes(r)).toEqual(['encrypted_member']);
  });

  it('reports a CRC mismatch as corrupt for that member only', () => {
    const r = readArchive(buildZip([{ name: 'bad', data: 'abc', badCrc: true }, { name: 'good', data: 'def' }]));
    expect(r.issues.map((i) => `${i.code}:${i.path ?? ''}`)).toEqual(['corrupt:bad']);
    expect(r.entries[1]?.data).toBeDefined();
  });

  it('stops a deflate bomb member at the ratio limit', () => {
    const bomb = deflateRawSync(Buffer.alloc(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(20_000);
    const r = readArchive(buildZip([{ name: 'zeros', data: Buffer.alloc(4 * 1024 * 1024), deflate: true }]));
    expect(codes(r)).toEqual(['ratio_too_high']);
    expect(r.entries[0]?.data).toBeUndefined();
  });

  it('flags zip symlinks and unsafe names', () => {
    const r = readArchive(buildZip([{ name: 'ln', data: '/etc/passwd', unixMode: 0o120777 }, { name: '../../x', data: 'x' }, { name: 'run.sh', data: '#!', unixMode: 0o100755 }]));
    expect(r.entries.map((e) => [e.path, e.kind, e.linkTarget ?? '', e.mode ?? 0])).toEqual([
      ['ln', 'symlink', '/etc/passwd', 0o777],
      ['../../x', 'file', '', 0],
      ['run.sh', 'file', '', 0o755],
    ]);
    expect(codes(r)).toEqual(['link_member', 'path_traversal']);
  });

  it('recovers members from local headers when the central directory is cut', () => {
    const zip = buildZip([{ name: 'a', data: 'first' }, { name: 'b', data: 'second', deflate: true }, { name: 'c', data: 'third' }]);
    for (let cut = 1; cut < zip.length; cut += 7) {
      const r = readArchive(zip.subarray(0, cut));
      expect(r.complete).toBe(false);
      for (const e of r.entries) if (e.data !== undefined) expect(['first', 'second', 'third']).toContain(new TextDecoder().decode(e.data));
    }
    const lastLocal = readArchive(zip.subarray(0, zip.length - 30));
    expect(lastLocal.entries.map((e) => e.path)).toEqual(['a', 'b', 'c']);
  });
});
