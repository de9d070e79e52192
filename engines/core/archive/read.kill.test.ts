// readArchive's format decisions and gzip handling at their edges: the ustar magic, a zip behind a stub, the gzip
// header's optional fields (RFC 1952), what a gzip stream holds (a tar, a lone file, a cut tar), the bomb limits with
// their reasons, damage keeping the decoded prefix byte for byte, and the zip limits in the archive's terms.
// Written against mutants of core/archive that the reader tests let through (docs/testing.md, mutation testing).
import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildTar, buildZip } from './build.fixture.js';
import { detectArchiveFormat, readArchive, readNested, RATIO_FLOOR_BYTES } from './index.js';
import type { ArchiveReadResult } from './index.js';

const codes = (r: ArchiveReadResult): string[] => r.issues.map((i) => i.code);
const enc = new TextEncoder();

/** A gzip stream with the given header flags and optional fields (RFC 1952), around deflated `body`. */
function gzipWith(body: Uint8Array, fields: { extra?: Uint8Array; name?: Uint8Array }): Uint8Array {
  const plain = gzipSync(body);
  let flags = 0;
  const head: number[] = [];
  if (fields.extra !== undefined) {
    flags |= 0x04;
    head.push(fields.extra.length & 0xff, fields.extra.length >> 8, ...fields.extra);
  }
  if (fields.name !== undefined) {
    flags |= 0x08;
    head.push(...fields.name);
  }
  const out = Uint8Array.from([...plain.subarray(0, 10), ...head, ...plain.subarray(10)]);
  out[3] = flags;
  return out;
}

describe('format detection', () => {
  it('a block with the ustar magic at 257 is a tar even when its checksum is bad; one letter off is not', () => {
    const block = new Uint8Array(512).fill(0x41);
    block.set(enc.encode('ustar'), 257);
    expect(detectArchiveFormat(block)).toBe('tar');
    for (let k = 0; k < 5; k++) {
      const off = Uint8Array.from(block);
      off[257 + k] = 0x41;
      expect(detectArchiveFormat(off), `letter ${k}`).toBeUndefined();
    }
    expect(detectArchiveFormat(block.subarray(0, 261))).toBeUndefined();
    expect(detectArchiveFormat(block.subarray(0, 262))).toBe('tar');
  });

  it('a tar header without the magic (v7) is a tar by its checksum', () => {
    const v7 = Uint8Array.from(buildTar([{ name: 'a', data: 'x' }]));
    v7.fill(0, 257, 265);
    let sum = 0;
    v7.fill(0x20, 148, 156);
    for (let i = 0; i < 512; i++) sum += v7[i]!;
    v7.set(enc.encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    expect(detectArchiveFormat(v7)).toBe('tar');
    expect(readArchive(v7).entries.map((e) => e.path)).toEqual(['a']);
  });

  it('a zip behind a stub is found by its end record, from 22 bytes on', () => {
    const zip = buildZip([{ name: 'a.txt', data: 'hello' }]);
    const stubbed = Uint8Array.from([...enc.encode('#!/bin/sh\nexit 0\n'), ...zip]);
    expect(detectArchiveFormat(stubbed)).toBe('zip');
    expect(readArchive(stubbed).entries.map((e) => e.path)).toEqual(['a.txt']);
    const emptyEnd = zip.subarray(zip.length - 22);
    expect(detectArchiveFormat(emptyEnd)).toBe('zip');
    expect(detectArchiveFormat(emptyEnd.subarray(1))).toBeUndefined();
    expect(detectArchiveFormat(enc.encode('x'.repeat(40)))).toBeUndefined();
  });
});

describe('what a gzip stream holds', () => {
  it('a tar with the ustar magic but a bad checksum is still read as a tar (and reported damaged)', () => {
    const t = Uint8Array.from(buildTar([{ name: 'a', data: 'x' }]));
    t[0] = t[0]! ^ 1;
    const r = readArchive(gzipSync(t));
    expect([r.format, codes(r)]).toEqual(['tar.gz', ['corrupt']]);
  });

  it('a lone file of 512 zero bytes or more is an empty tar; fewer or other bytes are one member', () => {
    expect(readArchive(gzipSync(new Uint8Array(1024))).format).toBe('tar.gz');
    const short = readArchive(gzipSync(new Uint8Array(511)));
    expect([short.format, short.entries.map((e) => [e.path, e.size])]).toEqual(['gzip', [['data', 511]]]);
    const text = readArchive(gzipSync(enc.encode('x'.repeat(600))));
    expect([text.format, text.entries.map((e) => [e.path, e.size])]).toEqual(['gzip', [['data', 600]]]);
    expect(readArchive(gzipSync(new Uint8Array(0))).format).toBe('tar.gz');
  });

  it('a cut stream of a file: under 512 decoded bytes it is read as a cut tar, from 512 on as a lone member without data', () => {
    const small = gzipSync(enc.encode('y'.repeat(300)));
    const s = readArchive(small.subarray(0, small.length - 8));
    expect([s.format, s.complete]).toEqual(['tar.gz', false]);
    const body = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251);
    const big = gzipSync(body);
    const b = readArchive(big.subarray(0, big.length - 8));
    expect([b.format, b.entries.map((e) => [e.path, e.data]), codes(b)]).toEqual(['gzip', [['data', undefined]], ['truncated']]);
    expect(b.issues[0]?.message).toBe('the gzip stream is cut short; what decoded before the cut was read');
  });

  it('reads the name after an extra field; no name when it is empty, unterminated or over 1024 bytes', () => {
    const body = enc.encode('named body');
    const name = (fields: { extra?: Uint8Array; name?: Uint8Array }): string | undefined => readArchive(gzipWith(body, fields)).entries[0]?.path;
    expect(name({ extra: Uint8Array.from([1, 2, 3, 4, 5, 6]), name: enc.encode('after-extra.txt\0') })).toBe('after-extra.txt');
    expect(name({ extra: new Uint8Array(300), name: enc.encode('long-extra.txt\0') })).toBe('long-extra.txt');
    expect(name({ name: enc.encode('\0') })).toBe('data');
    expect(name({ name: enc.encode(`${'n'.repeat(1024)}\0`) })).toBe('n'.repeat(1024));
    expect(name({ name: enc.encode(`${'n'.repeat(1025)}\0`) })).toBe('data');
    expect(name({ name: Uint8Array.from([0xe9, 0x2e, 0x74, 0]) })).toBe('é.t');
  });
});

describe('gzip bombs and damage', () => {
  it('stops at the ratio when the ratio bound is the smaller, at the total otherwise, each with its reason, keeping exactly the bound', () => {
    const zeros = gzipSync(new Uint8Array(4 * 1024 * 1024).fill(0x41));
    const ratio = readArchive(zeros, { maxRatio: 10 });
    expect([ratio.format, ratio.issues, ratio.complete]).toEqual([
      'gzip',
      [{ code: 'ratio_too_high', message: 'the gzip stream expands more than 10 times; reading stopped at the limit' }],
      false,
    ]);
    expect(ratio.entries.map((e) => [e.path, e.size])).toEqual([['data', RATIO_FLOOR_BYTES]]);
    const total = readArchive(zeros, { maxTotalBytes: 1000, maxRatio: 100_000 });
    expect(total.issues).toEqual([{ code: 'total_too_large', message: 'the gzip stream expands past the limit of 1000 bytes; reading stopped there' }]);
    expect(total.entries.map((e) => [e.path, e.size])).toEqual([['data', RATIO_FLOOR_BYTES + 1000]]);
  });

  it('the same bomb whose trailer lies about its size is stopped at the same bound', () => {
    const zeros = Uint8Array.from(gzipSync(new Uint8Array(4 * 1024 * 1024).fill(0x41)));
    zeros.set([0, 0, 0, 0], zeros.length - 4);
    const r = readArchive(zeros, { maxRatio: 10 });
    expect([codes(r), r.entries.map((e) => e.size)]).toEqual([['ratio_too_high'], [RATIO_FLOOR_BYTES]]);
  });

  it('a stream at exactly its bound is read whole', () => {
    const body = new Uint8Array(RATIO_FLOOR_BYTES).fill(3);
    const r = readArchive(gzipSync(body), { maxRatio: 1 });
    expect([codes(r), r.entries.map((e) => e.size), r.complete]).toEqual([[], [RATIO_FLOOR_BYTES], true]);
  });

  it('damage in the deflate data keeps the decoded prefix byte for byte (over several output steps), reported corrupt', () => {
    // Incompressible bytes (a linear congruential sequence), so a cut of the stream is a cut of the data.
    let seed = 12345;
    const body = Uint8Array.from({ length: 600_000 }, () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    });
    const deflated = deflateRawSync(body);
    const gz = gzipSync(body);
    // Bytes in the middle of the deflate stream replaced: a block header there is no longer valid.
    const bad = Uint8Array.from(gz);
    const at = 10 + Math.floor(deflated.length * 0.8);
    bad.fill(0xff, at, at + 64);
    const r = readArchive(bad);
    expect(r.format).toBe('gzip');
    expect(r.complete).toBe(false);
    expect(codes(r)).toEqual(['corrupt']);
    const tarred = readArchive(gzipSync(buildTar([{ name: 'big.bin', data: body }])).subarray(0, 400_000));
    expect(tarred.entries.map((e) => [e.path, e.data === undefined])).toEqual([['big.bin', true]]);
    // A tar member cut by the damage is listed without data; one that decoded whole before it keeps its bytes.
    const two = gzipSync(buildTar([{ name: 'first.bin', data: body.subarray(0, 200_000) }, { name: 'second.bin', data: body }]));
    const cutTwo = readArchive(two.subarray(0, Math.floor(two.length * 0.7)));
    expect(cutTwo.entries.map((e) => e.path)).toEqual(['first.bin', 'second.bin']);
    expect(Buffer.compare(Buffer.from(cutTwo.entries[0]!.data!), Buffer.from(body.subarray(0, 200_000)))).toBe(0);
    expect(cutTwo.entries[1]?.data).toBeUndefined();
    expect(codes(cutTwo)).toEqual(['truncated']);
  });

  it('a gzip stream whose CRC fails is damaged, with its reason', () => {
    const gz = Uint8Array.from(gzipSync(enc.encode('z'.repeat(2000))));
    gz[gz.length - 8] = gz[gz.length - 8]! ^ 0xff;
    const r = readArchive(gz);
    expect(r.issues).toEqual([{ code: 'corrupt', message: 'the gzip stream is damaged; what decoded before the damage was read' }]);
  });
});

describe('zip members in the archive limits', () => {
  const bomb = new Uint8Array(2 * 1024 * 1024);
  it('the archive maxRatio reaches the zip reader: a 1000:1 member is refused by default and read under a larger ratio', () => {
    const zip = buildZip([{ name: 'z.bin', data: bomb, deflate: true }]);
    const strict = readArchive(zip);
    expect([strict.entries.map((e) => [e.path, e.data]), codes(strict)]).toEqual([[['z.bin', undefined]], ['ratio_too_high']]);
    const loose = readArchive(zip, { maxRatio: 100_000 });
    expect([loose.entries.map((e) => [e.path, e.data?.length]), codes(loose)]).toEqual([[['z.bin', bomb.length]], []]);
  });

  it('weighs the limits before the ratio, other refusals before the limits, and stops at maxEntries', () => {
    const zip = buildZip([{ name: 'z.bin', data: bomb, deflate: true }, { name: 'small', data: 'ok' }]);
    const limited = readArchive(zip, { maxEntryBytes: 1024 });
    expect([limited.entries.map((e) => [e.path, e.data?.length]), codes(limited)]).toEqual([
      [
        ['z.bin', undefined],
        ['small', 2],
      ],
      ['member_too_large'],
    ]);
    const secret = readArchive(buildZip([{ name: 's', data: 'x'.repeat(10), encrypted: true }]), { maxEntryBytes: 1 });
    expect(codes(secret)).toEqual(['encrypted_member']);
    const many = readArchive(zip, { maxEntries: 1 });
    expect([many.entries.map((e) => e.path), codes(many), many.complete]).toEqual([['z.bin'], ['ratio_too_high', 'too_many_members'], false]);
    const total = readArchive(buildZip([{ name: 'a', data: 'aaaa' }, { name: 'b', data: 'bbbb' }]), { maxTotalBytes: 6 });
    expect([total.entries.map((e) => [e.path, e.data?.length]), codes(total)]).toEqual([[['a', 4]], ['total_too_large']]);
  });

  it('a zip directory member and a Unix mode are kept; nested zips are zips', () => {
    const zip = buildZip([{ name: 'dir/' }, { name: 'dir/run.sh', data: '#!', unixMode: 0o100755 }]);
    const r = readArchive(zip);
    expect(r.entries.map((e) => [e.path, e.kind, e.mode])).toEqual([
      ['dir/', 'directory', undefined],
      ['dir/run.sh', 'file', 0o755],
    ]);
    expect(r.issues).toEqual([]);
    const nested = readNested({ path: 'in.zip', kind: 'file', size: zip.length, data: zip }, 1);
    expect([nested.format, nested.entries.map((e) => e.container)]).toEqual(['zip', ['in.zip', 'in.zip']]);
    const notRead = readNested({ path: 'x.zip', kind: 'file', size: 1 }, 1);
    expect(notRead.issues).toEqual([{ code: 'member_too_large', path: 'x.zip', message: 'the nested archive bytes were not read (over a limit or not a file)' }]);
  });
});
