// The zip reader's bomb guard and member reads, case by case, on zips written byte by byte here (APPNOTE 6.3: local
// header 4.3.7, central directory record 4.3.12, end record 4.3.16): which members overlap when the directory lists
// them out of offset order, the local name that disagrees with the directory, and small stored and deflated members
// read exactly or refused by their size and CRC-32. Every expected offset, size and verdict is worked out by hand.
// Written against mutants of zipfile.ts that the reader tests let through (docs/testing.md, mutation testing).
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { memorySource, ZipArchive, type ZipMember } from './index.js';

const enc = new TextEncoder();
const le16 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff];
const le32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const bytesOf = (s: string): Uint8Array => enc.encode(s);

interface Part {
  /** The name in the central directory. */
  readonly name: string;
  /** The name in the local header (the directory's by default). */
  readonly localName?: string;
  /** The bytes after the local header. */
  readonly body: Uint8Array;
  readonly method?: number;
  readonly flags?: number;
  readonly crc?: number;
  /** Declared uncompressed size (the body's length by default). */
  readonly size?: number;
  /** Compressed size written in the directory (the body's length by default). */
  readonly csize?: number;
  /** Bytes of local extra field (zeros under id 0xcafe). */
  readonly localExtra?: number;
  /** Unix mode: the record is then made by Unix (version made by 3 << 8 | 20) with the mode in the high 16 bits. */
  readonly unixMode?: number;
  /** Where the directory says the local header is (where it was written by default). */
  readonly offset?: number;
}

interface Built {
  readonly bytes: Uint8Array;
  /** Where each part's local header was written. */
  readonly offsets: number[];
}

/** Local headers in order, then the directory records in `order` (all by default), then the end record. */
function zip(parts: readonly Part[], order: readonly number[] = parts.map((_, i) => i), withDirectory = true): Built {
  const out: number[] = [];
  const offsets: number[] = [];
  for (const p of parts) {
    offsets.push(out.length);
    const name = bytesOf(p.localName ?? p.name);
    const extra = p.localExtra ?? 0;
    const crc = p.crc ?? crc32(p.body);
    out.push(...le32(0x04034b50), ...le16(20), ...le16(p.flags ?? 0), ...le16(p.method ?? 0), ...le16(0), ...le16(0x21), ...le32(crc), ...le32(p.body.length), ...le32(p.size ?? p.body.length), ...le16(name.length), ...le16(extra));
    out.push(...name);
    if (extra > 0) out.push(...le16(0xcafe), ...le16(extra - 4), ...new Array<number>(extra - 4).fill(0));
    out.push(...p.body);
  }
  if (!withDirectory) return { bytes: Uint8Array.from(out), offsets };
  const cdOffset = out.length;
  for (const i of order) {
    const p = parts[i];
    if (p === undefined) throw new Error('no such part');
    const name = bytesOf(p.name);
    const madeBy = p.unixMode === undefined ? 20 : (3 << 8) | 20;
    out.push(...le32(0x02014b50), ...le16(madeBy), ...le16(20), ...le16(p.flags ?? 0), ...le16(p.method ?? 0), ...le16(0), ...le16(0x21), ...le32(p.crc ?? crc32(p.body)));
    out.push(...le32(p.csize ?? p.body.length), ...le32(p.size ?? p.body.length), ...le16(name.length), ...le16(0), ...le16(0), ...le16(0), ...le16(0), ...le32((p.unixMode ?? 0) * 0x10000), ...le32(p.offset ?? offsets[i] ?? 0), ...name);
  }
  const cdSize = out.length - cdOffset;
  out.push(...le32(0x06054b50), ...le16(0), ...le16(0), ...le16(order.length), ...le16(order.length), ...le32(cdSize), ...le32(cdOffset), ...le16(0));
  return { bytes: Uint8Array.from(out), offsets };
}

const open = (b: Built | Uint8Array): ZipArchive => ZipArchive.open(memorySource(b instanceof Uint8Array ? b : b.bytes));
const list = (z: ZipArchive): ZipMember[] => [...z.members()];
/** Per member in directory order: name, refusal code (or null), and the text read (or the read's refusal code). */
function view(z: ZipArchive): [string, string | null, string][] {
  return list(z).map((m) => {
    const d = z.read(m);
    return [m.name, m.refusal?.code ?? null, 'data' in d ? new TextDecoder().decode(d.data) : `refused:${d.refusal.code}`];
  });
}
const ten = (c: string): Uint8Array => bytesOf(c.repeat(10));
const OVERLAP = { code: 'overlapping_members', message: 'zip members share bytes (a zip-bomb construction); their data was refused' };
const NO_HEADER = { code: 'corrupt', message: 'a zip member has no local header where the directory says' };
const BAD_CHECK = { refusal: { code: 'corrupt', message: 'a zip member fails its size or CRC check; it is listed without data' } };

describe('overlapping members, whatever order the directory lists them in', () => {
  // Each part: 30-byte header + 1-byte name + 10 bytes = 41 bytes, so a at 0..41, b at 41..82, c at 82..123.
  const abc: Part[] = [
    { name: 'a', body: ten('a') },
    { name: 'b', body: ten('b') },
    { name: 'c', body: ten('c') },
  ];

  it('refuses nothing when the members touch end to start and the directory lists them c, a, b', () => {
    const built = zip(abc, [2, 0, 1]);
    expect(built.offsets).toEqual([0, 41, 82]);
    const z = open(built);
    expect(view(z)).toEqual([
      ['c', null, 'cccccccccc'],
      ['a', null, 'aaaaaaaaaa'],
      ['b', null, 'bbbbbbbbbb'],
    ]);
    expect(z.bombRefusals).toBe(0);
    expect(z.ambiguities).toEqual([]);
    expect(list(z)[2]).toStrictEqual({ index: 2, name: 'b', kind: 'file', mode: undefined, flags: 0, method: 0, crc: crc32(ten('b')), compressedSize: 10, size: 10, localOffset: 41 });
  });

  it('refuses nothing for the orders b, c, a and c, b, a either', () => {
    for (const order of [
      [1, 2, 0],
      [2, 1, 0],
    ]) {
      const z = open(zip(abc, order));
      expect(list(z).map((m) => [m.name, m.refusal])).toEqual(order.map((i) => [abc[i]?.name, undefined]));
      expect(z.bombRefusals).toBe(0);
    }
  });

  it('refuses all three when one directory record spans the other two and is listed last', () => {
    // "a" at 0 now claims 100 bytes: 0..131, holding b (41..82) and c (82..123), which do not overlap each other.
    const parts: Part[] = [{ name: 'a', body: ten('a'), csize: 100 }, abc[1]!, abc[2]!];
    const z = open(zip(parts, [1, 2, 0]));
    expect(list(z).map((m) => [m.name, m.refusal])).toEqual([
      ['b', OVERLAP],
      ['c', OVERLAP],
      ['a', OVERLAP],
    ]);
    expect(z.bombRefusals).toBe(3);
    // Listed first (the sweep starts from it): still all three.
    const first = open(zip(parts, [0, 1, 2]));
    expect(list(first).map((m) => [m.name, m.refusal])).toEqual([
      ['a', OVERLAP],
      ['b', OVERLAP],
      ['c', OVERLAP],
    ]);
  });

  it('refuses two records over one member that follows an untouched one', () => {
    // a at 0..41 and b at 41..82 touch; a third record points at b's header again (41..82 twice).
    const z = open(zip([abc[0]!, abc[1]!, { name: 'b', body: ten('b'), offset: 41 }]));
    expect(list(z).map((m) => [m.name, m.localOffset, m.refusal])).toEqual([
      ['a', 0, undefined],
      ['b', 41, OVERLAP],
      ['b', 41, OVERLAP],
    ]);
    expect(z.bombRefusals).toBe(2);
  });

  it('refuses both of two members that share one byte when the first listed is also first in the file', () => {
    // "a" claims 11 bytes: 0..42, one byte into b (41..82); b is also encrypted, and overlap is said first.
    const z = open(zip([{ name: 'a', body: ten('a'), csize: 11 }, { name: 'b', body: ten('b'), flags: 1 }]));
    expect(list(z).map((m) => [m.name, m.refusal])).toEqual([
      ['a', OVERLAP],
      ['b', OVERLAP],
    ]);
    expect(z.bombRefusals).toBe(2);
  });

  it('does not count a record that points at no local header as overlapping the member it points into', () => {
    // b's record points 35 bytes in, into a's data ("aaaa", no signature): b has no header, a is intact.
    const z = open(zip([{ name: 'a', body: ten('a') }, { name: 'b', body: ten('b'), offset: 35 }]));
    expect(list(z).map((m) => [m.name, m.refusal])).toEqual([
      ['a', undefined],
      ['b', NO_HEADER],
    ]);
    expect(z.bombRefusals).toBe(0);
    const b = list(z)[1]!;
    expect(z.read(b)).toEqual({ refusal: NO_HEADER });
    // Without its refusal (a caller's copy), the read still finds no header.
    const { refusal: _dropped, ...bare } = b;
    expect(z.read(bare)).toEqual({ refusal: NO_HEADER });
    expect(new TextDecoder().decode((z.read(list(z)[0]!) as { data: Uint8Array }).data)).toBe('aaaaaaaaaa');
  });
});

describe('a local header that names another file than the directory', () => {
  const MISMATCH = { code: 'local_name_mismatch', message: 'a zip local header names another file than the central directory (Python refuses it; other tools take either)' };

  it('says so once per member, under the directory name, and still reads the data after the local name and extra field', () => {
    const z = open(zip([{ name: 'a.txt', localName: 'b.txt', body: bytesOf('hello') }]));
    expect(z.ambiguities).toEqual([{ ...MISMATCH, path: 'a.txt' }]);
    expect(view(z)).toEqual([['a.txt', null, 'hello']]);
    // A local name two bytes longer and an 8-byte local extra field: the data starts at 30 + 3 + 8 = 41, not at 30 + 1.
    const longer = open(zip([{ name: 'a', localName: 'abc', localExtra: 8, body: bytesOf('payload') }]));
    expect(longer.ambiguities).toEqual([{ ...MISMATCH, path: 'a' }]);
    expect(view(longer)).toEqual([['a', null, 'payload']]);
  });

  it('says nothing when the names agree, whatever the extra field', () => {
    const z = open(zip([{ name: 'same.txt', body: bytesOf('x'), localExtra: 12 }, { name: 'other', body: bytesOf('y') }]));
    expect(z.ambiguities).toEqual([]);
    expect(view(z)).toEqual([
      ['same.txt', null, 'x'],
      ['other', null, 'y'],
    ]);
  });

  it('reports at most 100 mismatches: 101 give 100, and 100 give 100', () => {
    const parts = (n: number): Part[] => Array.from({ length: n }, (_, i) => ({ name: `d${String(i).padStart(3, '0')}`, localName: `l${String(i).padStart(3, '0')}`, body: bytesOf('z') }));
    const z101 = open(zip(parts(101)));
    expect(z101.count).toBe(101);
    expect(z101.ambiguities.length).toBe(100);
    expect(z101.ambiguities[99]).toEqual({ ...MISMATCH, path: 'd099' });
    expect(open(zip(parts(100))).ambiguities.length).toBe(100);
    expect(open(zip(parts(99))).ambiguities.length).toBe(99);
  });
});

describe('small stored and deflated members, read exactly or refused', () => {
  it('reads a stored member whose CRC-32 is the standard check value of "123456789" (0xCBF43926), and refuses it one bit off', () => {
    const good = open(zip([{ name: 'n', body: bytesOf('123456789'), crc: 0xcbf43926 }]));
    expect(view(good)).toEqual([['n', null, '123456789']]);
    const bad = open(zip([{ name: 'n', body: bytesOf('123456789'), crc: 0xcbf43927 }]));
    const m = list(bad)[0]!;
    expect(m.refusal).toBeUndefined();
    expect(bad.read(m)).toEqual(BAD_CHECK);
  });

  it('refuses a stored member whose declared size is one more than its bytes, though its CRC is right', () => {
    const z = open(zip([{ name: 'n', body: bytesOf('123456789'), crc: 0xcbf43926, size: 10 }]));
    expect(z.read(list(z)[0]!)).toEqual(BAD_CHECK);
  });

  it('reads empty members, stored (CRC 0) and deflated (one final empty fixed block: 03 00)', () => {
    const z = open(zip([{ name: 's', body: new Uint8Array(0), crc: 0 }, { name: 'd', body: Uint8Array.from([0x03, 0x00]), method: 8, crc: 0, size: 0 }]));
    expect(list(z).map((m) => z.read(m)).map((d) => ('data' in d ? [...d.data] : d))).toEqual([[], []]);
  });

  it('reads a deflated member, and refuses one that inflates past its declared size', () => {
    const text = 'hello hello hello hello';
    const body = new Uint8Array(deflateRawSync(bytesOf(text)));
    const z = open(zip([{ name: 'h', body, method: 8, crc: crc32(bytesOf(text)), size: text.length }]));
    expect(view(z)).toEqual([['h', null, text]]);
    const over = open(zip([{ name: 'h', body, method: 8, crc: crc32(bytesOf(text)), size: 3 }]));
    expect(over.read(list(over)[0]!)).toEqual({ refusal: { code: 'corrupt', message: 'a zip member does not inflate to its declared size' } });
  });

  it('takes compressed bytes up to size + ceil(size / 1024) + 1024 and refuses one more, unread', () => {
    // 204 empty non-final stored blocks (00 00 00 ff ff) then a final stored block with "Z" (01 01 00 fe ff 5a):
    // 204 * 5 + 6 = 1026 bytes for 1 byte, exactly 1 + ceil(1 / 1024) + 1024.
    const blocks: number[] = [];
    for (let i = 0; i < 204; i++) blocks.push(0x00, 0x00, 0x00, 0xff, 0xff);
    blocks.push(0x01, 0x01, 0x00, 0xfe, 0xff, 0x5a);
    const body = Uint8Array.from(blocks);
    expect(body.length).toBe(1026);
    const z = open(zip([{ name: 'z', body, method: 8, crc: crc32(bytesOf('Z')), size: 1 }]));
    expect(view(z)).toEqual([['z', null, 'Z']]);
    const more = open(zip([{ name: 'z', body: Uint8Array.from([...blocks, 0x00]), method: 8, crc: crc32(bytesOf('Z')), size: 1 }]));
    expect(more.read(list(more)[0]!)).toEqual({ refusal: { code: 'corrupt', message: 'a zip member is stored in far more bytes than it declares' } });
  });

  it('reads a member ending exactly at the end of a directory-less archive, and says truncated one byte short', () => {
    // Local header only: 30 + 1 + 5 = 36 bytes.
    const whole = zip([{ name: 'r', body: bytesOf('abcde') }], [], false).bytes;
    expect(whole.length).toBe(36);
    const z = open(whole);
    expect(z.recovered).toBe(true);
    expect(view(z)).toEqual([['r', null, 'abcde']]);
    // The stored-bytes reader used for link targets also takes data ending exactly at the end of the source.
    expect(z.linkTarget(list(z)[0]!)).toBe('abcde');
    const cut = open(whole.subarray(0, 35));
    expect(list(cut).map((m) => m.refusal)).toEqual([{ code: 'truncated', message: 'a zip member runs past the end of the archive' }]);
  });
});

describe('which member the ratio guard and the refusals apply to', () => {
  const big = 2_000_000; // over the 1 MiB floor and over 200 times a few bytes

  it('refuses only the deflated file member that declares too much, not a stored one or a deflated directory', () => {
    const z = open(
      zip([
        { name: 'stored', body: ten('s'), size: big },
        { name: 'dir/', body: Uint8Array.from([0x03, 0x00]), method: 8, size: big, crc: 0 },
        { name: 'bomb', body: ten('x'), method: 8, size: big },
        { name: 'fine', body: ten('f') },
      ]),
    );
    expect(list(z).map((m) => [m.name, m.kind, m.refusal?.code ?? null])).toEqual([
      ['stored', 'file', null],
      ['dir/', 'directory', null],
      ['bomb', 'file', 'ratio_too_high'],
      ['fine', 'file', null],
    ]);
    expect(list(z)[2]?.refusal).toEqual({ code: 'ratio_too_high', message: 'a zip member declares more than the compression ratio limit allows; it is listed without data' });
    expect(z.bombRefusals).toBe(1);
    expect(z.read(list(z)[0]!)).toEqual(BAD_CHECK);
    expect(z.read(list(z)[1]!)).toEqual({ refusal: NO_HEADER });
  });

  it('lists encrypted files and unknown methods without data, but not a directory with the encryption bit or a UTF-8 name flag', () => {
    const z = open(
      zip([
        { name: 'enc', body: ten('e'), flags: 1 },
        { name: 'bz', body: ten('b'), method: 12 },
        { name: 'd/', body: new Uint8Array(0), flags: 1 },
        { name: 'u', body: ten('u'), flags: 0x800 },
      ]),
    );
    expect(list(z).map((m) => [m.name, m.refusal])).toEqual([
      ['enc', { code: 'encrypted_member', message: 'an encrypted zip member is listed without data' }],
      ['bz', { code: 'unsupported_compression', message: 'a zip member uses a compression method we do not read; it is listed without data' }],
      ['d/', undefined],
      ['u', undefined],
    ]);
    expect(z.read(list(z)[3]!)).toEqual({ data: ten('u') });
  });
});

describe('a symlink target: stored and at most 4096 bytes', () => {
  const link = (body: Uint8Array, method = 0): Part => ({ name: 'l', body, method, unixMode: 0o120777 });

  it('gives a 4096-byte stored target, not a 4097-byte or a deflated one, and never reads a link as a file', () => {
    const at = 'x'.repeat(4096);
    const z = open(zip([link(bytesOf(at))]));
    const m = list(z)[0]!;
    expect([m.kind, m.mode]).toEqual(['symlink', 0o777]);
    expect(z.linkTarget(m)).toBe(at);
    expect(z.read(m)).toEqual({ refusal: NO_HEADER });
    const over = open(zip([link(bytesOf(`${at}x`))]));
    expect(over.linkTarget(list(over)[0]!)).toBeUndefined();
    const deflated = open(zip([link(new Uint8Array(deflateRawSync(bytesOf('target'))), 8)]));
    expect(deflated.linkTarget(list(deflated)[0]!)).toBeUndefined();
    const short = open(zip([link(bytesOf('../t'))]));
    expect(short.linkTarget(list(short)[0]!)).toBe('../t');
    // A link whose record points at no local header (byte 3 of its own header) has no target.
    const lost = open(zip([{ ...link(bytesOf('../t')), offset: 3 }]));
    expect(list(lost).map((l) => [l.kind, l.refusal])).toEqual([['symlink', undefined]]);
    expect(lost.linkTarget(list(lost)[0]!)).toBeUndefined();
    // A directory claiming 4000 bytes for a 4-byte target runs past the end of the 95-byte archive.
    const past = open(zip([{ ...link(bytesOf('../t')), csize: 4000 }]));
    expect(past.linkTarget(list(past)[0]!)).toBeUndefined();
  });

  it('gives neither data nor a target for a member of another archive (an index this one does not have)', () => {
    const two = list(open(zip([{ name: 'a', body: ten('a') }, { name: 'b', body: ten('b') }])));
    const one = open(zip([{ name: 'a', body: ten('a') }]));
    expect(one.read(two[1]!)).toEqual({ refusal: NO_HEADER });
    expect(one.linkTarget(two[1]!)).toBeUndefined();
  });

  it('does not take a local signature in the last bytes of the end record comment (a header cut short) as a header', () => {
    // Two local headers (82 bytes), two 47-byte directory records (94), the 22-byte end record and a 4-byte comment
    // "PK\x03\x04": 202 bytes; b's record points at the comment, 198, where only 4 of a header's 30 bytes are left.
    const built = zip([{ name: 'a', body: ten('a') }, { name: 'b', body: ten('b'), offset: 198 }]);
    const bytes = Uint8Array.from([...built.bytes, 0x50, 0x4b, 0x03, 0x04]);
    bytes[bytes.length - 6] = 4;
    expect(bytes.length).toBe(202);
    const z = open(bytes);
    expect(z.problems).toEqual([]);
    expect(list(z).map((m) => [m.name, m.refusal])).toEqual([
      ['a', undefined],
      ['b', NO_HEADER],
    ]);
  });
});
