// The tar reader's header fields and member types, case by case, each expected value from the ustar/GNU/PAX formats
// (POSIX pax, GNU tar manual "Basic Tar Format"): octal fields padded with spaces or NULs, base-256 numbers, the
// type flags, the ustar prefix, PAX and GNU meta headers, and where the end of the archive and damage are reported.
// Written against mutants of core/archive that the reader tests let through (docs/testing.md, mutation testing).
import { describe, expect, it } from 'vitest';
import { buildTar, paxRecord, type TarMember } from './build.fixture.js';
import { readArchive } from './index.js';
import type { ArchiveReadResult } from './index.js';

const codes = (r: ArchiveReadResult): string[] => r.issues.map((i) => i.code);
const view = (r: ArchiveReadResult): unknown[] => r.entries.map((e) => [e.path, e.kind, e.size, e.data === undefined ? null : new TextDecoder().decode(e.data)]);
const tar = (members: readonly TarMember[]): ArchiveReadResult => readArchive(buildTar(members));

/** Rewrites a header field of the first block and fixes its checksum. */
function patch(bytes: Uint8Array, header: number, offset: number, field: Uint8Array | string): Uint8Array {
  const out = Uint8Array.from(bytes);
  const f = typeof field === 'string' ? new TextEncoder().encode(field) : field;
  out.set(f, header + offset);
  out.fill(0x20, header + 148, header + 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += out[header + i]!;
  out.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), header + 148);
  return out;
}

describe('member types', () => {
  it('maps each type flag: links and devices without a body, unknown flags and contiguous files as files, D as a directory with a body', () => {
    const r = tar([
      { name: 'f0', data: 'a' },
      { name: 'f7', type: '7', data: 'b' },
      { name: 'fq', type: 'Q', data: 'c' },
      { name: 'h', type: '1', linkname: 'f0', size: 0 },
      { name: 's', type: '2', linkname: 'f0', size: 0 },
      { name: 'c', type: '3' },
      { name: 'b', type: '4' },
      { name: 'p', type: '6' },
      { name: 'd/', type: '5' },
      { name: 'gd', type: 'D', data: 'listing' },
    ]);
    expect(view(r)).toEqual([
      ['f0', 'file', 1, 'a'],
      ['f7', 'file', 1, 'b'],
      ['fq', 'file', 1, 'c'],
      ['h', 'hardlink', 0, null],
      ['s', 'symlink', 0, null],
      ['c', 'other', 0, null],
      ['b', 'other', 0, null],
      ['p', 'other', 0, null],
      ['d/', 'directory', 0, null],
      ['gd', 'directory', 7, null],
    ]);
    expect(r.entries.map((e) => e.linkTarget)).toEqual([undefined, undefined, undefined, 'f0', 'f0', undefined, undefined, undefined, undefined, undefined]);
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ['link_member', 'h'],
      ['link_member', 's'],
      ['device_member', 'c'],
      ['device_member', 'b'],
      ['device_member', 'p'],
    ]);
    expect([r.complete, r.totalBytes]).toEqual([true, 3]);
  });

  it('a link, device or ustar directory claiming a size has no body: the block after its header is read as the next header', () => {
    for (const [type, kind] of [['2', 'symlink'], ['1', 'hardlink'], ['3', 'other'], ['5', 'directory']] as const) {
      const r = tar([{ name: 'l', type, linkname: 'x', data: 'ignored body!' }, { name: 'after', data: 'ok' }]);
      // The claimed body is no header (bad checksum): skipped as npm skips it, and the member after it is flagged.
      expect(view(r), type).toEqual([
        ['l', kind, 0, null],
        ['after', 'file', 2, 'ok'],
      ]);
      expect([codes(r).at(-1), r.ambiguities.map((a) => [a.code, a.path])], type).toEqual(['corrupt', [['after_bad_header', 'after']]]);
    }
  });

  it('a GNU volume label is no member; a GNU sparse member is listed without data', () => {
    const r = tar([{ name: 'TAPE-1', type: 'V' }, { name: 'sparse', type: 'S', data: 'xyz' }, { name: 'f', data: 'z' }]);
    expect(view(r)).toEqual([
      ['sparse', 'file', 3, null],
      ['f', 'file', 1, 'z'],
    ]);
    expect(r.issues).toEqual([{ code: 'unsupported_compression', path: 'sparse', message: 'a GNU sparse member is listed without data' }]);
    expect(r.totalBytes).toBe(1);
  });

  it('keeps the permission bits of the mode (0o7777) and drops the file-type bits', () => {
    const r = tar([{ name: 'x', data: '1', mode: 0o104755 }, { name: 'y', data: '2', mode: 0o644 }]);
    expect(r.entries.map((e) => e.mode)).toEqual([0o4755, 0o644]);
  });
});

describe('header fields', () => {
  it('reads octal sizes padded with spaces or NULs on either side', () => {
    const base = buildTar([{ name: 'a', data: 'hello' }]);
    for (const field of [' 0000000005 ', '00000000005\0', `${'\0'.repeat(9)}5 \0`, '5\0          ']) {
      const r = readArchive(patch(base, 0, 124, field));
      expect([view(r), codes(r)], JSON.stringify(field)).toEqual([[['a', 'file', 5, 'hello']], []]);
    }
  });

  it('stops at a size field that is not octal, and at a negative base-256 size', () => {
    const base = buildTar([{ name: 'a', data: 'hello' }, { name: 'b', data: 'x' }]);
    const bad = readArchive(patch(base, 0, 124, '0000000008 \0'));
    expect([bad.entries, bad.issues, bad.complete]).toEqual([[], [{ code: 'corrupt', message: 'a tar header holds an invalid size; reading stopped there' }], false]);
    const negative = new Uint8Array(12).fill(0xff);
    const neg = readArchive(patch(base, 0, 124, negative));
    expect([neg.entries, codes(neg)]).toEqual([[], ['corrupt']]);
  });

  it('reads an empty size field as 0 and refuses digits with anything else around them or a base-256 size past 2^53', () => {
    const base = buildTar([{ name: 'e' }, { name: 'f', data: 'x' }]);
    const empty = readArchive(patch(base, 0, 124, new Uint8Array(12)));
    expect([view(empty), codes(empty)]).toEqual([[['e', 'file', 0, ''], ['f', 'file', 1, 'x']], []]);
    for (const field of ['x0000000000 ', '00000000000x', '000000 00000']) {
      expect(codes(readArchive(patch(base, 0, 124, field))), JSON.stringify(field)).toEqual(['corrupt']);
    }
    expect(codes(readArchive(patch(base, 0, 124, Uint8Array.from([0x80, ...new Array(11).fill(0xff)]))))).toEqual(['corrupt']);
  });

  it('a header needs its stored checksum: a non-octal checksum field is no header', () => {
    const t = buildTar([{ name: 'a', data: 'A' }]);
    const noSum = Uint8Array.from(t);
    noSum.set(new TextEncoder().encode('zzzzzz\0 '), 148);
    const r = readArchive(Uint8Array.from([...noSum.subarray(0, 1024), ...t]));
    expect([r.entries.map((e) => e.path), codes(r)]).toEqual([['a'], ['corrupt']]);
  });

  it('reads base-256 sizes over several bytes', () => {
    const big = readArchive(buildTar([{ name: 'b', data: 'x'.repeat(300), base256: true }, { name: 'c', data: 'y' }]));
    expect(view(big)).toEqual([
      ['b', 'file', 300, 'x'.repeat(300)],
      ['c', 'file', 1, 'y'],
    ]);
  });

  it('joins the ustar prefix and the name with a slash; GNU headers have no prefix', () => {
    const base = buildTar([{ name: 'name.txt', data: 'p' }]);
    const withPrefix = patch(base, 0, 345, 'some/dir');
    expect(readArchive(withPrefix).entries.map((e) => e.path)).toEqual(['some/dir/name.txt']);
    const gnu = patch(withPrefix, 0, 257, 'ustar  \0');
    expect(readArchive(gnu).entries.map((e) => e.path)).toEqual(['name.txt']);
  });
});

describe('PAX and GNU meta headers', () => {
  it('a PAX size replaces the header size; a global PAX path applies to every later member until a local one', () => {
    const r = tar([
      { name: 'g', type: 'g', data: paxRecord('comment', 'c') },
      { name: 'x', type: 'x', data: paxRecord('size', '3') },
      { name: 'sized', data: 'abc', size: 0 },
      { name: 'plain', data: 'd' },
    ]);
    expect(view(r)).toEqual([
      ['sized', 'file', 3, 'abc'],
      ['plain', 'file', 1, 'd'],
    ]);
    const global = tar([
      { name: 'g', type: 'g', data: paxRecord('path', 'global-name') },
      { name: 'one', data: '1' },
      { name: 'x', type: 'x', data: paxRecord('path', 'local') },
      { name: 'two', data: '2' },
      { name: 'three', data: '3' },
    ]);
    expect(global.entries.map((e) => e.path)).toEqual(['global-name', 'local', 'global-name']);
    // A PAX size describes the member after it, never the meta headers between them.
    const sized = tar([{ name: 'x', type: 'x', data: paxRecord('size', '3') }, { name: '././@LongLink', type: 'L', data: 'long-name\0' }, { name: 'short', data: 'abc', size: 0 }]);
    expect(view(sized)).toEqual([['long-name', 'file', 3, 'abc']]);
  });

  it('a PAX linkpath and a GNU long link name the link target; the local header applies to one member only', () => {
    const long = `${'t'.repeat(150)}/target`;
    const r = tar([
      { name: 'x', type: 'x', data: paxRecord('linkpath', 'pax-target') },
      { name: 'l1', type: '2', linkname: 'short' },
      { name: 'l2', type: '2', linkname: 'short' },
      { name: '././@LongLink', type: 'K', data: `${long}\0` },
      { name: 'l3', type: '1', linkname: 'short' },
    ]);
    expect(r.entries.map((e) => [e.path, e.linkTarget])).toEqual([
      ['l1', 'pax-target'],
      ['l2', 'short'],
      ['l3', long],
    ]);
  });

  it('refuses an invalid PAX size, an oversized meta header and malformed records, each with its reason', () => {
    const reason = (members: TarMember[]): unknown => {
      const r = tar(members);
      return [r.entries.length, r.issues.map((i) => i.message), r.complete];
    };
    expect(reason([{ name: 'x', type: 'x', data: paxRecord('size', '12a') }, { name: 'a', data: '1' }])).toEqual([0, ['a PAX header holds an invalid size; reading stopped there'], false]);
    expect(reason([{ name: 'x', type: 'x', data: paxRecord('size', '12345678901234567') }, { name: 'a', data: '1' }])).toEqual([0, ['a PAX header holds an invalid size; reading stopped there'], false]);
    expect(reason([{ name: 'L', type: 'L', data: 'x'.repeat(1024 * 1024 + 1) }, { name: 'a', data: '1' }])).toEqual([0, ['a tar extended header is implausibly large; reading stopped there'], false]);
    for (const body of ['5 a=b\n', '6 a=b\n\0'.slice(0, 5), '06 =b\n', ' 6 a=b\n', '6 a=bX', '7 a=b\nX']) {
      expect(reason([{ name: 'x', type: 'x', data: body }, { name: 'a', data: '1' }]), JSON.stringify(body)).toEqual([0, ['a PAX extended header is malformed; reading stopped there'], false]);
    }
    // Well-formed: a record with an empty value, and a NUL after the last record.
    expect(reason([{ name: 'x', type: 'x', data: `${paxRecord('comment', '')}\0\0` }, { name: 'a', data: '1' }])).toEqual([1, [], true]);
    // A meta header of exactly 1 MiB is read.
    expect(reason([{ name: 'L', type: 'L', data: `${'n'.repeat(1024 * 1024 - 1)}\0` }, { name: 'a', data: '1' }])).toEqual([1, [], true]);
  });

  it('a meta header cut short is truncation', () => {
    const bytes = buildTar([{ name: 'L', type: 'L', data: 'n'.repeat(2000) }]);
    const r = readArchive(bytes.subarray(0, 1024));
    expect([r.entries, r.issues, r.complete]).toEqual([[], [{ code: 'truncated', message: 'the archive ends in the middle of a member' }], false]);
  });
});

describe('the end of the archive and damage', () => {
  const two = buildTar([{ name: 'a', data: 'A' }]);
  const member = buildTar([{ name: 'b', data: 'B' }]).subarray(0, 1024);

  it('without end blocks: truncated, worded for a cut source or for a missing end', () => {
    const noEnd = two.subarray(0, 1024);
    const r = readArchive(noEnd);
    expect([view(r), r.issues, r.complete]).toEqual([[['a', 'file', 1, 'A']], [{ code: 'truncated', message: 'the archive ends without its end-of-archive blocks' }], false]);
    const headerOnly = readArchive(noEnd.subarray(0, 512));
    expect([view(headerOnly), headerOnly.issues]).toEqual([[['a', 'file', 1, null]], [{ code: 'truncated', message: 'the archive ends in the middle of a member' }]]);
    const partBlock = readArchive(two.subarray(0, 1024 + 100));
    expect([view(partBlock), partBlock.issues]).toEqual([[['a', 'file', 1, 'A']], [{ code: 'truncated', message: 'the archive ends in the middle of a member' }]]);
  });

  it('one zero block then a member: npm reads on, flagged; a single zero block at the very end ends the archive', () => {
    const single = Uint8Array.from([...two.subarray(0, 1024), ...new Uint8Array(512), ...member, ...new Uint8Array(1024)]);
    const r = readArchive(single);
    expect([r.entries.map((e) => e.path), r.ambiguities.map((a) => a.code), codes(r)]).toEqual([['a', 'b'], ['after_end_marker'], []]);
    const last = readArchive(Uint8Array.from([...two.subarray(0, 1024), ...new Uint8Array(512)]));
    expect([last.entries.map((e) => e.path), last.ambiguities, codes(last), last.complete]).toEqual([['a'], [], [], true]);
  });

  it('a member after the two end blocks is flagged, once, and not read; zero blocks after the end are nothing', () => {
    const after = Uint8Array.from([...two, ...member, ...member]);
    const r = readArchive(after);
    expect([r.entries.map((e) => e.path), r.ambiguities]).toEqual([['a'], [{ code: 'after_end_of_archive', message: 'a member follows the end-of-archive blocks (installers stop before it)' }]]);
    const zeros = readArchive(Uint8Array.from([...two, ...new Uint8Array(2048)]));
    expect(zeros.ambiguities).toEqual([]);
    // A block after the end that is no header is nothing either.
    const junk = readArchive(Uint8Array.from([...two, ...new Uint8Array(512).fill(7)]));
    expect(junk.ambiguities).toEqual([]);
  });

  it('a damaged header is skipped as npm does: the members after it are read and flagged, and the read is incomplete', () => {
    const damaged = Uint8Array.from(buildTar([{ name: 'a', data: 'A' }, { name: 'b', data: 'B' }, { name: 'c', data: 'C' }]));
    damaged[0] = damaged[0]! ^ 0x01;
    const r = readArchive(damaged);
    expect(r.entries.map((e) => e.path)).toEqual(['b', 'c']);
    expect(r.issues).toEqual([{ code: 'corrupt', message: 'a tar header is damaged (bad checksum); the blocks after it were read as npm reads them' }]);
    expect(r.ambiguities.map((a) => [a.code, a.path])).toEqual([
      ['after_bad_header', 'b'],
      ['after_bad_header', 'c'],
    ]);
    expect(r.complete).toBe(false);
  });

  it('accepts a header whose checksum was summed over signed bytes (old tars)', () => {
    const base = buildTar([{ name: 'é-name', data: 'x' }]);
    const out = Uint8Array.from(base);
    out.fill(0x20, 148, 156);
    let signed = 0;
    for (let i = 0; i < 512; i++) signed += out[i]! > 127 ? out[i]! - 256 : out[i]!;
    out.set(new TextEncoder().encode(`${signed.toString(8).padStart(6, '0')}\0 `), 148);
    expect(readArchive(out).entries.map((e) => e.path)).toEqual(['é-name']);
  });
});
