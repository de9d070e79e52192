// The archive bookkeeping at its boundaries: every limit at the limit and one past it, one issue per code and member,
// the cap on ambiguities, the unsafe-path forms, the ratio budget, limit validation, nesting and the lone gzip member.
// Written against mutants of core/archive that the reader tests let through (docs/testing.md, mutation testing).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { buildTar } from './build.fixture.js';
import { Collector, hasTraversal, isAbsolutePath, StopReading } from './collect.js';
import { DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, inflateBudget, MAX_RATIO, RATIO_FLOOR_BYTES, readArchive, readNested } from './index.js';
import type { ArchiveLimits, ArchiveReadResult } from './index.js';

const limits = (l: Partial<ArchiveLimits>): ArchiveLimits => ({ ...DEFAULT_ARCHIVE_LIMITS, ...l });
const codes = (r: { issues: readonly { code: string }[] }): string[] => r.issues.map((i) => i.code);
const files = (n: number, size = 1): { name: string; data: string }[] => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: 'x'.repeat(size) }));

describe('Collector limits at the boundary', () => {
  it('maxEntries: as many members as the limit are all read; one more stops with too_many_members', () => {
    const at = readArchive(buildTar(files(3)), { maxEntries: 3 });
    expect([at.entries.length, codes(at), at.complete]).toEqual([3, [], true]);
    const over = readArchive(buildTar(files(4)), { maxEntries: 3 });
    expect([over.entries.length, codes(over), over.complete]).toEqual([3, ['too_many_members'], false]);
  });

  it('maxEntryBytes: a member of exactly the limit has its data; one byte more is listed without data and the read goes on', () => {
    const r = readArchive(buildTar([{ name: 'a', data: 'x'.repeat(10) }, { name: 'b', data: 'x'.repeat(11) }, { name: 'c', data: 'y' }]), { maxEntryBytes: 10 });
    expect(r.entries.map((e) => [e.path, e.size, e.data?.length])).toEqual([
      ['a', 10, 10],
      ['b', 11, undefined],
      ['c', 1, 1],
    ]);
    expect(r.issues).toEqual([{ code: 'member_too_large', path: 'b', message: 'a member is larger than the limit of 10 bytes; it is listed without data' }]);
    expect(r.totalBytes).toBe(11);
  });

  it('maxTotalBytes: members adding up to exactly the limit are read; one byte more stops with total_too_large', () => {
    const at = readArchive(buildTar(files(3, 4)), { maxTotalBytes: 12 });
    expect([at.entries.length, at.totalBytes, codes(at), at.complete]).toEqual([3, 12, [], true]);
    const over = readArchive(buildTar(files(3, 4)), { maxTotalBytes: 11 });
    expect([over.entries.length, over.totalBytes, codes(over), over.complete]).toEqual([2, 8, ['total_too_large'], false]);
  });

  it('admit and checkCount on the collector itself: true at the limits, StopReading past them', () => {
    const c = new Collector(limits({ maxEntries: 1, maxEntryBytes: 5, maxTotalBytes: 5 }), undefined);
    expect(c.admit('a', 5)).toBe(true);
    expect(c.admit('b', 6)).toBe(false);
    c.add({ path: 'a', kind: 'file', size: 5 }, new Uint8Array(5));
    expect(c.totalBytes).toBe(5);
    expect(() => c.admit('c', 1)).toThrow(StopReading);
    expect(() => c.checkCount()).toThrow(StopReading);
    expect(codes(c)).toEqual(['member_too_large', 'total_too_large', 'too_many_members']);
    expect(c.issues.slice(1).map((i) => i.message)).toEqual([
      'the members add up to more than the limit of 5 bytes; the rest were not read',
      'the archive has more members than the limit of 1; the rest were not read',
    ]);
    expect(c.complete).toBe(false);
    const bare = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
    bare.add({ path: 'x', kind: 'file', size: 0 });
    expect(bare.entries).toStrictEqual([{ path: 'x', kind: 'file', size: 0 }]);
  });
});

describe('Collector issues, ambiguities and paths', () => {
  it('gives one issue per code and member, one per code for the archive, and only stopping codes make it incomplete', () => {
    const c = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
    c.issue('absolute_path', 'm', '/a');
    c.issue('absolute_path', 'm', '/a');
    c.issue('absolute_path', 'm', '/b');
    c.issue('corrupt', 'whole');
    c.issue('corrupt', 'whole again');
    c.issue('corrupt', 'for a member', 'x');
    expect(c.issues).toStrictEqual([
      { code: 'absolute_path', path: '/a', message: 'm' },
      { code: 'absolute_path', path: '/b', message: 'm' },
      { code: 'corrupt', message: 'whole' },
      { code: 'corrupt', path: 'x', message: 'for a member' },
    ]);
    const clean = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
    clean.issue('absolute_path', 'm', '/a');
    clean.issue('duplicate_member', 'm', 'a');
    expect(clean.complete).toBe(true);
  });

  it('keeps at most 100 ambiguities, one per code and member', () => {
    const c = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
    c.ambiguity('duplicate_path', 'm', 'p');
    c.ambiguity('duplicate_path', 'm', 'p');
    c.ambiguity('duplicate_path', 'm');
    expect(c.ambiguities).toStrictEqual([{ code: 'duplicate_path', path: 'p', message: 'm' }, { code: 'duplicate_path', message: 'm' }]);
    for (let i = 0; i < 150; i++) c.ambiguity('duplicate_path', 'm', `q${i}`);
    expect(c.ambiguities.length).toBe(100);
    expect(c.ambiguities[99]).toEqual({ code: 'duplicate_path', path: 'q97', message: 'm' });
    // The issue list and the ambiguity list are keyed apart: the same code and path may be in both.
    c.issue('duplicate_member', 'm', 'p');
    expect(codes(c)).toEqual(['duplicate_member']);
  });

  it('a folder listed twice is a duplicate but no ambiguity; a file twice (or a file and a folder) is both; a trailing slash is the same path', () => {
    const add = (pairs: [string, 'file' | 'directory'][]): Collector => {
      const c = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
      for (const [path, kind] of pairs) c.add({ path, kind, size: 0 });
      return c;
    };
    const dirs = add([['d/', 'directory'], ['d', 'directory']]);
    expect([codes(dirs), dirs.ambiguities.length]).toEqual([['duplicate_member'], 0]);
    const fileDir = add([['d/', 'directory'], ['d', 'file']]);
    expect([codes(fileDir), fileDir.ambiguities.map((a) => a.code)]).toEqual([['duplicate_member'], ['duplicate_path']]);
    const dirFile = add([['d', 'file'], ['d//', 'directory']]);
    expect([codes(dirFile), dirFile.ambiguities.map((a) => a.code)]).toEqual([['duplicate_member'], ['duplicate_path']]);
    const apart = add([['a', 'file'], ['ab', 'file'], ['a/b', 'file']]);
    expect([codes(apart), apart.ambiguities]).toEqual([[], []]);
  });

  it('absolute paths in every platform form, and .. only as a whole component', () => {
    expect(['/x', '\\x', 'C:\\x', 'c:/x', 'Z:', '\\\\server\\share'].map(isAbsolutePath)).toEqual([true, true, true, true, true, true]);
    expect(['x', 'x/C:', './x', '1:/x', 'CC:/x', 'x\\/'].map(isAbsolutePath)).toEqual([false, false, false, false, false, false]);
    expect(['..', 'a/../b', 'a\\..\\b', '../a', 'a/..'].map(hasTraversal)).toEqual([true, true, true, true, true]);
    expect(['a/..b', '...', 'a/b..', '.', 'a/./b'].map(hasTraversal)).toEqual([false, false, false, false, false]);
  });

  it('keeps mode, link target and container; data only on files, counted in totalBytes', () => {
    const c = new Collector(DEFAULT_ARCHIVE_LIMITS, 'outer.tgz');
    c.add({ path: 'f', kind: 'file', size: 2, mode: 0o755 }, new Uint8Array(2));
    c.add({ path: 'l', kind: 'symlink', size: 0, linkTarget: 't' }, new Uint8Array(3));
    c.add({ path: 'h', kind: 'hardlink', size: 0, linkTarget: 'f' });
    c.add({ path: 'dev', kind: 'other', size: 0, device: true });
    c.add({ path: 'o', kind: 'other', size: 0, device: false });
    expect(c.entries).toStrictEqual([
      { path: 'f', kind: 'file', size: 2, mode: 0o755, data: new Uint8Array(2), container: 'outer.tgz' },
      { path: 'l', kind: 'symlink', size: 0, linkTarget: 't', container: 'outer.tgz' },
      { path: 'h', kind: 'hardlink', size: 0, linkTarget: 'f', container: 'outer.tgz' },
      { path: 'dev', kind: 'other', size: 0, container: 'outer.tgz' },
      { path: 'o', kind: 'other', size: 0, container: 'outer.tgz' },
    ]);
    expect(c.totalBytes).toBe(2);
    expect(c.issues).toEqual([
      { code: 'link_member', path: 'l', message: 'a member is a symlink; its target is not followed' },
      { code: 'link_member', path: 'h', message: 'a member is a hardlink; its target is not followed' },
      { code: 'device_member', path: 'dev', message: 'a member is a device or fifo' },
    ]);
  });

  it('names each unsafe-path issue with its message', () => {
    const c = new Collector(DEFAULT_ARCHIVE_LIMITS, undefined);
    c.add({ path: '/abs/../x', kind: 'file', size: 0 });
    c.add({ path: '/abs/../x', kind: 'file', size: 0 });
    expect(c.issues).toEqual([
      { code: 'absolute_path', path: '/abs/../x', message: 'a member has an absolute path' },
      { code: 'path_traversal', path: '/abs/../x', message: 'a member path climbs out of the archive with ..' },
      { code: 'duplicate_member', path: '/abs/../x', message: 'two members have the same path' },
    ]);
    expect(c.ambiguities).toEqual([{ code: 'duplicate_path', path: '/abs/../x', message: 'two members have the same path; installers keep the last' }]);
  });
});

describe('the ratio budget', () => {
  it('is the floor up to floor / ratio compressed bytes, then ratio times the compressed size (rounded down)', () => {
    expect(MAX_RATIO).toBe(200);
    expect(RATIO_FLOOR_BYTES).toBe(1048576);
    expect(inflateBudget(0)).toBe(1048576);
    expect(inflateBudget(5242)).toBe(1048576);
    expect(inflateBudget(5243)).toBe(1048600);
    expect(inflateBudget(10_000)).toBe(2_000_000);
    expect(inflateBudget(10_000, 1000.5)).toBe(10_005_000);
    expect(inflateBudget(3, 1_000_000.7)).toBe(3_000_002);
  });
});

describe('readArchive limits, nesting and lone gzip members', () => {
  it('refuses a limit that is negative, not finite or not a number, naming the limit', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => readArchive(buildTar([]), { maxEntries: bad })).toThrow(new VitrineError('bad_request', 'archive limit maxEntries must be a finite number >= 0'));
    expect(() => readArchive(buildTar([]), { maxRatio: '2' as unknown as number })).toThrow(/archive limit maxRatio must be/);
    expect(readArchive(buildTar(files(1)), { maxEntries: 1, maxRatio: 0 }).entries.length).toBe(1);
    expect(() => readArchive('PK' as unknown as Uint8Array)).toThrow(new VitrineError('bad_request', 'readArchive needs the archive as a Uint8Array'));
  });

  it('opens a nested archive up to maxNesting, naming the container path outer first', () => {
    const inner = buildTar([{ name: 'in.txt', data: 'hi' }]);
    const entry = { path: 'pkg/inner.tar', kind: 'file' as const, size: inner.length, data: inner };
    const at = readNested(entry, 2);
    expect(at.entries.map((e) => [e.path, e.container])).toEqual([['in.txt', 'pkg/inner.tar']]);
    const deeper = readNested({ ...entry, container: 'outer.tgz' }, 3);
    expect([deeper.format, deeper.entries, deeper.issues, deeper.complete]).toEqual([
      'tar',
      [],
      [{ code: 'nesting_too_deep', path: 'outer.tgz!/pkg/inner.tar', message: 'an archive is nested deeper than the limit of 2; it was not opened' }],
      false,
    ]);
    const gz = readNested({ ...entry, data: gzipSync(inner) }, 1);
    expect([gz.format, gz.entries.map((e) => e.path)]).toEqual(['tar.gz', ['in.txt']]);
    const notRead = readNested({ path: 'big.zip', kind: 'file', size: 10 }, 1);
    expect([notRead.format, codes(notRead), notRead.complete]).toEqual(['unknown', ['member_too_large'], false]);
    expect(readNested({ ...entry, data: new TextEncoder().encode('plain text, no archive') }, 3).format).toBe('unknown');
  });

  it('reads a lone gzip file as one member named by the header, data within the limits, and its digest when asked', () => {
    const body = new TextEncoder().encode('hello lone member');
    // FNAME set by hand: gzip header flag 0x08 and a zero-terminated name after the 10-byte header.
    const plain = gzipSync(body);
    const named = new Uint8Array(plain.length + 6);
    named.set(plain.subarray(0, 10));
    named[3] = 0x08;
    named.set(new TextEncoder().encode('n.txt\0'), 10);
    named.set(plain.subarray(10), 16);
    const r = readArchive(named, undefined, { digestUncompressed: true });
    expect([r.format, r.entries.map((e) => [e.path, e.size, e.data?.length]), r.issues, r.complete]).toEqual(['gzip', [['n.txt', 17, 17]], [], true]);
    expect(r.uncompressedSha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(readArchive(plain).entries.map((e) => e.path)).toEqual(['data']);
    expect(readArchive(plain).uncompressedSha256).toBeUndefined();
    const small = readArchive(plain, { maxEntryBytes: 16 });
    expect([small.entries.map((e) => [e.path, e.data]), codes(small)]).toEqual([[['data', undefined]], ['member_too_large']]);
    const stopped = readArchive(plain, { maxTotalBytes: 16 });
    expect([stopped.entries, codes(stopped), stopped.complete]).toEqual([[], ['total_too_large'], false]);
    // A cut stream: truncated, and no digest of a partial stream is given.
    const cut = readArchive(plain.subarray(0, plain.length - 4), undefined, { digestUncompressed: true });
    expect([codes(cut), cut.complete, cut.uncompressedSha256]).toEqual([['truncated'], false, undefined]);
  });

  it('tells bzip2, xz and zstd from bytes that are no archive, and an empty tar from an empty buffer', () => {
    const r = (b: number[]): [string, string[]] => {
      const x: ArchiveReadResult = readArchive(Uint8Array.from(b));
      return [x.format, codes(x)];
    };
    expect(r([0x42, 0x5a, 0x68, 0x39])).toEqual(['unknown', ['unsupported_compression']]);
    expect(r([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1])).toEqual(['unknown', ['unsupported_compression']]);
    expect(r([0x28, 0xb5, 0x2f, 0xfd, 1])).toEqual(['unknown', ['unsupported_compression']]);
    expect(r([0x42, 0x5a, 0x69])).toEqual(['unknown', ['corrupt']]);
    expect(r([0x28, 0xb5, 0x2f, 0xfe])).toEqual(['unknown', ['corrupt']]);
    expect(r([])).toEqual(['unknown', ['corrupt']]);
    expect(readArchive(new Uint8Array(0)).issues[0]?.message).toBe('the buffer is empty');
    expect(r(new Array(1024).fill(0))).toEqual(['tar', []]);
    expect(r([1, ...new Array(1023).fill(0)])).toEqual(['unknown', ['corrupt']]);
    expect(r(new Array(511).fill(0))).toEqual(['unknown', ['corrupt']]);
    expect(readArchive(Uint8Array.from([1, 2, 3])).issues[0]?.message).toBe('the bytes are not a tar, gzip or zip archive');
  });

  it('detects zip by its local or end signature only, and gzip by both magic bytes', () => {
    const d = (b: number[]): string | undefined => detectArchiveFormat(Uint8Array.from([...b, ...new Array(30).fill(0x41)]));
    expect([d([0x50, 0x4b, 3, 4]), d([0x50, 0x4b, 5, 6]), d([0x50, 0x4b, 3, 6]), d([0x50, 0x4b, 5, 4]), d([0x50, 0x4c, 3, 4])]).toEqual(['zip', 'zip', undefined, undefined, undefined]);
    expect([d([0x1f, 0x8b]), d([0x1f, 0x8c]), d([0x1e, 0x8b])]).toEqual(['gzip', undefined, undefined]);
  });
});
