// The zip reader's directory walk, field by field, on zips written byte by byte here (APPNOTE 6.3: local header 4.3.7,
// central directory record 4.3.12, end record 4.3.16, zip64 extra field 4.5.3, zip64 end record and locator 4.3.14-15;
// external attributes as Info-ZIP writes them: MS-DOS attribute bits low, Unix st_mode high when "made by" is 3; code
// page 437 names unless flag bit 11 says UTF-8, as Python's zipfile reads them). Every expected offset, size, name,
// kind and problem is worked out by hand. Also the file source's read-ahead windows, checked against the same bytes
// held in memory. Written against mutants of zipfile.ts that the reader tests let through (docs/testing.md).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSource, hasZipEnd, memorySource, ZipArchive, type ZipMember } from './zipfile.js';

const le16 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff];
const le32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const le64 = (n: number): number[] => [...le32(n % 0x100000000), ...le32(Math.floor(n / 0x100000000))];
const ascii = (s: string): number[] => [...Buffer.from(s, 'latin1')];

interface Local {
  readonly name: number[];
  readonly body: number[];
  readonly flags?: number;
  readonly method?: number;
  /** Compressed size in the header (the body's length by default). */
  readonly csize?: number;
  readonly extra?: number[];
}
/** A local header (30 bytes), its name, extra field and body. */
function local(l: Local): number[] {
  const extra = l.extra ?? [];
  return [...le32(0x04034b50), ...le16(20), ...le16(l.flags ?? 0), ...le16(l.method ?? 0), ...le16(0), ...le16(0x21), ...le32(crc32(Uint8Array.from(l.body))), ...le32(l.csize ?? l.body.length), ...le32(l.body.length), ...le16(l.name.length), ...le16(extra.length), ...l.name, ...extra, ...l.body];
}

interface Central {
  readonly name: number[];
  readonly offset: number;
  readonly size: number;
  readonly csize?: number;
  readonly crc?: number;
  readonly flags?: number;
  readonly method?: number;
  /** The high byte of "version made by": 0 MS-DOS, 3 Unix. */
  readonly madeBy?: number;
  readonly external?: number;
  readonly extra?: number[];
  readonly comment?: number[];
}
/** A central directory record (46 bytes), its name, extra field and comment. */
function central(c: Central): number[] {
  const extra = c.extra ?? [];
  const comment = c.comment ?? [];
  return [
    ...le32(0x02014b50), ...le16(((c.madeBy ?? 0) << 8) | 20), ...le16(20), ...le16(c.flags ?? 0), ...le16(c.method ?? 0), ...le16(0), ...le16(0x21),
    ...le32(c.crc ?? 0), ...le32(c.csize ?? c.size), ...le32(c.size), ...le16(c.name.length), ...le16(extra.length), ...le16(comment.length),
    ...le16(0), ...le16(0), ...le32(c.external ?? 0), ...le32(c.offset), ...c.name, ...extra, ...comment,
  ];
}
/** An end record (22 bytes and its comment); `commentLength` may claim another length than the comment's. */
const eocd = (count: number, cdSize: number, cdOffset: number, comment: number[] = [], commentLength = comment.length): number[] => [...le32(0x06054b50), ...le16(0), ...le16(0), ...le16(count), ...le16(count), ...le32(cdSize), ...le32(cdOffset), ...le16(commentLength), ...comment];

/** One stored member "f" holding "hello" (30 + 1 + 5 = 36 local bytes), its directory record with `c`, and the end record. */
function one(c: Partial<Central> = {}, l: Partial<Local> = {}): Uint8Array {
  const loc = local({ name: ascii('f'), body: ascii('hello'), ...l });
  const rec = central({ name: ascii('f'), offset: 0, size: 5, crc: crc32(Buffer.from('hello')), ...c });
  return Uint8Array.from([...loc, ...rec, ...eocd(1, rec.length, loc.length)]);
}
const open = (b: Uint8Array, maxMembers?: number): ZipArchive => ZipArchive.open(memorySource(b), maxMembers === undefined ? {} : { maxMembers });
const list = (z: ZipArchive): ZipMember[] => [...z.members()];
const text = (z: ZipArchive, m: ZipMember | undefined): string => {
  if (m === undefined) throw new Error('no member');
  const d = z.read(m);
  return 'data' in d ? Buffer.from(d.data).toString('latin1') : `refused:${d.refusal.code}`;
};

describe('member names as Python zipfile decodes them', () => {
  it('reads code page 437 without flag bit 11 (0x80 is Ç, 0xE1 ß, 0xFF no-break space) and UTF-8 with it', () => {
    const cp = one({ name: [0x80, 0x61, 0xe1, 0xff] }, { name: [0x80, 0x61, 0xe1, 0xff] });
    expect(list(open(cp)).map((m) => m.name)).toEqual(['Çaß\u00a0']);
    const utf = [...Buffer.from('é.txt', 'utf8')];
    expect(list(open(one({ name: utf, flags: 0x800 }, { name: utf, flags: 0x800 }))).map((m) => m.name)).toEqual(['é.txt']);
    // The same two bytes without the flag are two code page 437 characters (0xC3 ├, 0xA9 ⌐).
    expect(list(open(one({ name: utf }, { name: utf }))).map((m) => m.name)).toEqual(['├⌐.txt']);
  });

  it('cuts a name at its first NUL, and keeps a name without one whole', () => {
    const z = open(one({ name: ascii('ab\0cd') }, { name: ascii('ab\0cd') }));
    expect(list(z).map((m) => m.name)).toEqual(['ab']);
    expect(list(open(one({ name: ascii('\0x') }, { name: ascii('\0x') }))).map((m) => m.name)).toEqual(['']);
  });
});

describe('kind and mode from the external attributes', () => {
  const kindMode = (c: Partial<Central>): [string, number | undefined] => {
    const m = list(open(one(c)))[0];
    return [m?.kind ?? 'none', m?.mode];
  };
  it('made by Unix: the st_mode type bits decide, the permission bits are the mode', () => {
    expect(kindMode({ madeBy: 3, external: 0o100644 * 0x10000 })).toEqual(['file', 0o644]);
    expect(kindMode({ madeBy: 3, external: 0o104755 * 0x10000 })).toEqual(['file', 0o4755]);
    expect(kindMode({ madeBy: 3, external: 0o040755 * 0x10000 })).toEqual(['directory', 0o755]);
    expect(kindMode({ madeBy: 3, external: 0o120777 * 0x10000 })).toEqual(['symlink', 0o777]);
    expect(kindMode({ madeBy: 3, external: 0o060600 * 0x10000 })).toEqual(['other', 0o600]);
    expect(kindMode({ madeBy: 3, external: 0o010600 * 0x10000 })).toEqual(['other', 0o600]);
    // Permission bits without a type are a plain file.
    expect(kindMode({ madeBy: 3, external: 0o644 * 0x10000 })).toEqual(['file', 0o644]);
    // No Unix bits recorded: no mode.
    expect(kindMode({ madeBy: 3, external: 0 })).toEqual(['file', undefined]);
  });

  it('made by MS-DOS: the directory attribute (0x10) makes a directory, no mode; the same bit from Unix does not', () => {
    expect(kindMode({ madeBy: 0, external: 0x10 })).toEqual(['directory', undefined]);
    expect(kindMode({ madeBy: 0, external: 0x20 })).toEqual(['file', undefined]);
    expect(kindMode({ madeBy: 3, external: 0x10 })).toEqual(['file', undefined]);
    // Made by another system (11, NTFS): neither the DOS bit nor Unix bits are read.
    expect(kindMode({ madeBy: 11, external: 0x10 | (0o040755 * 0x10000) })).toEqual(['file', undefined]);
  });

  it('a name ending in "/" is a directory whatever the attributes', () => {
    const z = open(one({ name: ascii('d/'), madeBy: 3, external: 0o100644 * 0x10000 }, { name: ascii('d/') }));
    expect(list(z).map((m) => [m.name, m.kind])).toEqual([['d/', 'directory']]);
  });
});

describe('directory record fields read exactly', () => {
  it('gives CRC-32 and sizes with every byte significant (0x9ABCDEF0, 0x12345678)', () => {
    const z = open(one({ crc: 0x9abcdef0, size: 0x12345678, csize: 5 }));
    const m = list(z)[0];
    expect([m?.crc, m?.size, m?.compressedSize, m?.method, m?.flags]).toEqual([0x9abcdef0, 0x12345678, 5, 0, 0]);
    expect(m?.refusal).toBeUndefined();
  });

  it('reads the zip64 extra field for each saturated field, in the order size, compressed size, offset', () => {
    const big = 0x1_2345_6789; // past 32 bits
    const ff = 0xffffffff;
    const z64 = (...vals: number[]): number[] => [...le16(1), ...le16(vals.length * 8), ...vals.flatMap(le64)];
    const all = list(open(one({ size: ff, csize: ff, offset: ff, extra: z64(big, 5, 0) })))[0];
    expect([all?.size, all?.compressedSize, all?.localOffset]).toEqual([big, 5, 0]);
    // Only the offset saturated: the first 8 bytes are the offset.
    const offsetOnly = open(one({ offset: ff, extra: z64(0) }));
    expect(list(offsetOnly).map((m) => [m.size, m.compressedSize, m.localOffset])).toEqual([[5, 5, 0]]);
    expect(text(offsetOnly, list(offsetOnly)[0])).toBe('hello');
    // Only the compressed size saturated: the first 8 bytes are it.
    expect(list(open(one({ csize: ff, extra: z64(5) }))).map((m) => [m.size, m.compressedSize])).toEqual([[5, 5]]);
    // Another extra field first (id 0x5455, 5 bytes) is skipped by its length.
    const other = [...le16(0x5455), ...le16(9), 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(list(open(one({ size: ff, extra: [...other, ...z64(7)] }))).map((m) => m.size)).toEqual([7]);
    // Values are read only inside the zip64 field's own length, and only for saturated fields: here it holds the size
    // and 8 more bytes; the compressed size (saturated, no value given) stays as it is, the offset (not saturated) too.
    const tight = open(one({ size: ff, csize: ff, extra: [...le16(1), ...le16(8), ...le64(5), ...other] }));
    expect(list(tight).map((m) => [m.size, m.compressedSize, m.localOffset])).toEqual([[5, ff, 0]]);
    const roomy = open(one({ size: ff, csize: 5, extra: [...le16(1), ...le16(16), ...le64(5), ...le64(999)] }));
    expect(list(roomy).map((m) => [m.size, m.localOffset, text(roomy, m)])).toEqual([[5, 0, 'hello']]);
    // A zip64 field too short for the value leaves the saturated field as it is.
    expect(list(open(one({ size: ff, extra: [...le16(1), ...le16(4), 0, 0, 0, 0] }))).map((m) => m.size)).toEqual([ff]);
    // The same with the offset and another extra field after the short zip64 field: the value is not read across
    // into the next field's bytes.
    expect(list(open(one({ offset: ff, extra: [...le16(1), ...le16(4), 0, 0, 0, 0, ...other] }))).map((m) => [m.localOffset, m.refusal?.code])).toEqual([[ff, 'corrupt']]);
    // An offset saturated and not given stays unreadable (no local header there).
    expect(list(open(one({ offset: ff }))).map((m) => [m.localOffset, m.refusal?.code])).toEqual([[ff, 'corrupt']]);
  });

  it('steps over each record\'s extra field and comment to the next record', () => {
    const a = local({ name: ascii('a'), body: ascii('AAA') });
    const b = local({ name: ascii('b'), body: ascii('BB') });
    const ra = central({ name: ascii('a'), offset: 0, size: 3, crc: crc32(Buffer.from('AAA')), extra: [...le16(0xcafe), ...le16(2), 9, 9], comment: ascii('note') });
    const rb = central({ name: ascii('b'), offset: a.length, size: 2, crc: crc32(Buffer.from('BB')) });
    const z = open(Uint8Array.from([...a, ...b, ...ra, ...rb, ...eocd(2, ra.length + rb.length, a.length + b.length)]));
    expect(z.problems).toEqual([]);
    expect(list(z).map((m) => [m.name, m.localOffset, text(z, m)])).toEqual([
      ['a', 0, 'AAA'],
      ['b', 34, 'BB'],
    ]);
  });

  it('reads a record whose comment ends at the last byte of the archive, and calls one a byte longer damage', () => {
    // "abcde" stored at 0 (30 + 5 + 5 = 40 bytes); its record at 40: 46 + 5-byte name + 10-byte extra field = 61 bytes,
    // then the 22-byte end record: 123 bytes. A comment of 22 bytes ends at 40 + 61 + 22 = 123.
    const loc = local({ name: ascii('abcde'), body: ascii('hello') });
    const withComment = (n: number): ZipArchive => {
      const rec = central({ name: ascii('abcde'), offset: 0, size: 5, crc: crc32(Buffer.from('hello')), extra: [...le16(0xcafe), ...le16(6), 0, 0, 0, 0, 0, 0] });
      rec[32] = n;
      return open(Uint8Array.from([...loc, ...rec, ...eocd(1, rec.length, loc.length)]));
    };
    const fits = withComment(22);
    expect([fits.count, fits.problems, list(fits).map((m) => text(fits, m))]).toEqual([1, [], ['hello']]);
    const over = withComment(23);
    expect([over.count, over.problems]).toEqual([0, [{ code: 'corrupt', message: 'the zip central directory is damaged; later members were not read' }]]);
  });

  it('calls the directory damaged where a record has no central signature, and still says the count disagrees', () => {
    const bytes = one();
    bytes[36] = 0x51; // "QK\x01\x02" where "PK\x01\x02" belongs
    const z = open(bytes);
    expect([z.count, z.recovered]).toEqual([0, false]);
    expect(z.problems).toEqual([{ code: 'corrupt', message: 'the zip central directory is damaged; later members were not read' }]);
    expect(z.ambiguities).toEqual([{ code: 'directory_count_mismatch', message: 'the zip end record counts another number of members than its directory holds; Python reads the directory' }]);
  });

  it('says when the local header names another file, including one that is only a prefix of the directory name', () => {
    const z = open(one({ name: ascii('ab') }, { name: ascii('a') }));
    expect(z.ambiguities).toEqual([{ code: 'local_name_mismatch', message: 'a zip local header names another file than the central directory (Python refuses it; other tools take either)', path: 'ab' }]);
    expect(list(z).map((m) => text(z, m))).toEqual(['hello']);
  });

  it('calls the directory damaged when a record\'s comment runs past the end of the archive', () => {
    const loc = local({ name: ascii('f'), body: ascii('hello') });
    // The record claims a 200-byte comment; the archive ends 22 bytes after the record.
    const rec = central({ name: ascii('f'), offset: 0, size: 5 });
    rec[32] = 200;
    const z = open(Uint8Array.from([...loc, ...rec, ...eocd(1, rec.length, loc.length)]));
    expect(z.count).toBe(0);
    expect(z.problems.map((p) => p.code)).toEqual(['corrupt']);
    expect(z.recovered).toBe(false);
  });
});

describe('the end record and where the directory is', () => {
  const base = one();

  it('finds the end record under a comment that fills the archive to its end, and not under one that claims a byte more', () => {
    const body = [...base.subarray(0, base.length - 22)];
    const withComment = (claimed: number): Uint8Array => Uint8Array.from([...body, ...eocd(1, 47, 36, ascii('comment'), claimed)]);
    expect(hasZipEnd(withComment(7))).toBe(true);
    expect(open(withComment(7)).problems).toEqual([]);
    expect(hasZipEnd(withComment(6))).toBe(true); // trailing bytes after a shorter comment are allowed
    expect(hasZipEnd(withComment(8))).toBe(false);
    const cut = open(withComment(8));
    expect([cut.recovered, cut.problems.map((p) => p.code), list(cut).map((m) => m.name)]).toEqual([true, ['truncated'], ['f']]);
  });

  it('looks for the end record only in the last 22 + 65535 bytes (the record and the longest comment)', () => {
    expect(hasZipEnd(base)).toBe(true);
    expect(hasZipEnd(base.subarray(0, base.length - 1))).toBe(false);
    expect(hasZipEnd(Uint8Array.from(eocd(0, 0, 0)))).toBe(true);
    // The end record first, then junk: 65535 bytes of it are a comment length away; 65536 are past the window.
    const withTail = (n: number): Uint8Array => Uint8Array.from([...eocd(0, 0, 0, [], 0), ...new Array<number>(n).fill(0x20)]);
    expect(hasZipEnd(withTail(65535))).toBe(true);
    expect(hasZipEnd(withTail(65536))).toBe(false);
  });

  it('shifts every offset by the bytes of a stub in front, and reads the members there', () => {
    const stub = ascii('#!/bin/sh\nexit 0\n'); // 17 bytes
    const z = open(Uint8Array.from([...stub, ...base]));
    expect(z.problems).toEqual([]);
    expect(list(z).map((m) => [m.localOffset, text(z, m)])).toEqual([[17, 'hello']]);
  });

  it('takes the directory as it is when the end record counts another number of members, and says so once', () => {
    const a = local({ name: ascii('a'), body: ascii('A') });
    const ra = central({ name: ascii('a'), offset: 0, size: 1, crc: crc32(Buffer.from('A')) });
    const counted = (n: number): ZipArchive => open(Uint8Array.from([...a, ...ra, ...eocd(n, ra.length, a.length)]));
    for (const n of [0, 2]) {
      const z = counted(n);
      expect([list(z).map((m) => text(z, m)), z.ambiguities.map((x) => x.code), z.problems]).toEqual([['A'], ['directory_count_mismatch'], []]);
    }
    expect(counted(1).ambiguities).toEqual([]);
  });

  it('stops at the member limit with too_many_members and no count ambiguity; at exactly the limit says nothing', () => {
    // Three 32-byte local headers (30 + 1-byte name + 1 byte) at 0, 32 and 64; the directory at 96.
    const names = ['a', 'b', 'c'];
    const locals = names.flatMap((n) => local({ name: ascii(n), body: ascii(n) }));
    const cd = names.flatMap((n, i) => central({ name: ascii(n), offset: i * 32, size: 1 }));
    const bytes = Uint8Array.from([...locals, ...cd, ...eocd(3, cd.length, 96)]);
    const capped = open(bytes, 2);
    expect([capped.count, capped.problems, capped.ambiguities]).toEqual([2, [{ code: 'too_many_members', message: 'the zip directory lists more members than the limit of 2; the rest were not read' }], []]);
    const exact = open(bytes, 3);
    expect([exact.count, exact.problems, exact.ambiguities]).toEqual([3, [], []]);
  });

  it('follows a zip64 locator right before the end record to the zip64 end record before it', () => {
    const loc = local({ name: ascii('f'), body: ascii('hello') });
    const rec = central({ name: ascii('f'), offset: 0, size: 5, crc: crc32(Buffer.from('hello')) });
    const at = loc.length + rec.length;
    const z64end = [...le32(0x06064b50), ...le64(44), ...le16(45), ...le16(45), ...le32(0), ...le32(0), ...le64(1), ...le64(1), ...le64(rec.length), ...le64(loc.length)];
    const locator = [...le32(0x07064b50), ...le32(0), ...le64(at), ...le32(1)];
    // The 32-bit fields all saturated: only the zip64 record says where the directory is.
    const bytes = Uint8Array.from([...loc, ...rec, ...z64end, ...locator, ...le32(0x06054b50), ...le16(0), ...le16(0), ...le16(0xffff), ...le16(0xffff), ...le32(0xffffffff), ...le32(0xffffffff), ...le16(0)]);
    const z = open(bytes);
    expect([z.problems, z.ambiguities, z.recovered]).toEqual([[], [], false]);
    expect(list(z).map((m) => text(z, m))).toEqual(['hello']);
    // The zip64 end record's signature damaged: the saturated 32-bit fields point past the archive, members are recovered.
    const broken = Uint8Array.from(bytes);
    broken[at] = 0;
    const r = open(broken);
    expect([r.recovered, r.problems.map((p) => p.code), list(r).map((m) => text(r, m))]).toEqual([true, ['truncated'], ['hello']]);
  });
});

describe('empty archives', () => {
  it('an end record alone, and a zip64 end record at offset 0 with its locator at 56 (the first place one fits), list nothing and say nothing', () => {
    const plain = open(Uint8Array.from(eocd(0, 0, 0)));
    expect([plain.count, plain.problems, plain.ambiguities, plain.recovered]).toEqual([0, [], [], false]);
    const z64end = [...le32(0x06064b50), ...le64(44), ...le16(45), ...le16(45), ...le32(0), ...le32(0), ...le64(0), ...le64(0), ...le64(0), ...le64(0)];
    const locator = [...le32(0x07064b50), ...le32(0), ...le64(0), ...le32(1)];
    const end = [...le32(0x06054b50), ...le16(0), ...le16(0), ...le16(0xffff), ...le16(0xffff), ...le32(0xffffffff), ...le32(0xffffffff), ...le16(0)];
    const z = open(Uint8Array.from([...z64end, ...locator, ...end]));
    expect([z.count, z.problems, z.ambiguities, z.recovered]).toEqual([0, [], [], false]);
  });
});

describe('members recovered from local headers when there is no directory', () => {
  it('steps over each local extra field and body to the next header, and lists a name ending in "/" as a directory', () => {
    const a = local({ name: ascii('a'), body: ascii('AAA'), extra: [...le16(0xcafe), ...le16(3), 1, 2, 3] });
    const d = local({ name: ascii('d/'), body: [] });
    const b = local({ name: ascii('b'), body: ascii('BB') });
    const z = open(Uint8Array.from([...a, ...d, ...b]));
    expect(z.recovered).toBe(true);
    expect(z.problems.map((p) => p.code)).toEqual(['truncated']);
    expect(list(z).map((m) => [m.name, m.kind, m.localOffset, m.mode, text(z, m)])).toEqual([
      ['a', 'file', 0, undefined, 'AAA'],
      ['d/', 'directory', 41, undefined, 'refused:corrupt'],
      ['b', 'file', 73, undefined, 'BB'],
    ]);
  });

  it('stops after a member with a data descriptor (flag 0x08) or a saturated compressed size, and says so', () => {
    for (const l of [{ flags: 0x08 }, { csize: 0xffffffff }]) {
      const first = local({ name: ascii('a'), body: ascii('A'), ...l });
      const z = open(Uint8Array.from([...first, ...local({ name: ascii('b'), body: ascii('B') })]));
      expect(list(z).map((m) => m.name)).toEqual(['a']);
      expect(z.problems).toEqual([
        { code: 'truncated', message: 'the zip central directory is missing or cut; members were recovered from local headers' },
        { code: 'corrupt', message: 'a zip member without sizes could not be followed past; later members were not read' },
      ]);
    }
    // Flag bits other than 0x08 (here 0x800, UTF-8) do not stop the walk.
    const utf = open(Uint8Array.from([...local({ name: ascii('a'), body: ascii('A'), flags: 0x800 }), ...local({ name: ascii('b'), body: ascii('B') })]));
    expect(list(utf).map((m) => m.name)).toEqual(['a', 'b']);
    expect(utf.problems.map((p) => p.code)).toEqual(['truncated']);
  });

  it('recovers at most maxMembers headers, and none from a header whose name is cut off', () => {
    const three = [...local({ name: ascii('a'), body: ascii('A') }), ...local({ name: ascii('b'), body: ascii('B') }), ...local({ name: ascii('c'), body: ascii('C') })];
    expect(open(Uint8Array.from(three), 2).count).toBe(2);
    expect(open(Uint8Array.from(three)).count).toBe(3);
    const cut = local({ name: ascii('abcdef'), body: [] }).slice(0, 33);
    expect(open(Uint8Array.from(cut)).count).toBe(0);
    expect(open(Uint8Array.from(local({ name: ascii('a'), body: [] }).slice(0, 29))).count).toBe(0);
  });
});

describe('the file source: read-ahead windows give the same bytes as memory', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'vitrine-zipsource-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  // 9 MiB + 7 bytes of a pattern whose every byte depends on its position: more than two 4 MiB windows.
  const size = 9 * 1024 * 1024 + 7;
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >>> 8) * 7 + (i >>> 16)) & 0xff;
  const file = path.join(work, 'pattern.bin');
  writeFileSync(file, bytes);

  it('reads inside, across and past windows, larger than a quarter window, and past the end, as memory does', () => {
    expect.hasAssertions();
    const src = new FileSource(file);
    const mem = memorySource(bytes);
    const M = 1024 * 1024;
    const reads: [number, number][] = [
      [0, 30], [10, 20], [4 * M - 5, 10], [4 * M + 3, 100], [100, 40], [8 * M + 1, 50], [5, 5], [4 * M + 3, 100],
      [2 * M, M + 1], [M, M], [size - 10, 30], [size - 1, 1], [size, 4], [size + 10, 4], [0, 0], [3 * M, 2 * M], [7 * M, 3 * M],
    ];
    for (const [offset, length] of reads) {
      const got = src.read(offset, length);
      expect([offset, length, Buffer.from(got).equals(Buffer.from(mem.read(offset, length)))]).toEqual([offset, length, true]);
    }
    // A view handed out stays valid after later reads fill other windows.
    const kept = Buffer.from(src.read(123, 16));
    const view = src.read(123, 16);
    src.read(6 * M, 10);
    src.read(8 * M, 10);
    src.read(2 * M, 10);
    expect(Buffer.from(view).equals(kept)).toBe(true);
    src.close();
    src.close();
    expect(() => src.read(0, 1)).toThrow('the zip source is closed');
  });
});
