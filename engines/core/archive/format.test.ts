// What readArchive says it read: a format for bytes it recognises, `unknown` for any other (it reported `tar` before), and the typed list of issues that make a read incomplete.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildTar, buildZip } from './build.fixture.js';
import { INCOMPLETE_ISSUES, readArchive, readNested, type ArchiveIssueCode } from './index.js';

describe('readArchive formats', () => {
  it('is unknown, with nothing read, for bytes that are no tar, gzip or zip', () => {
    const bzip2 = Uint8Array.of(0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59);
    const cases: [Uint8Array, ArchiveIssueCode][] = [
      [new Uint8Array(0), 'corrupt'],
      [new TextEncoder().encode('not an archive at all'), 'corrupt'],
      [Uint8Array.from({ length: 2000 }, (_, i) => (i * 31) & 0xff), 'corrupt'],
      [bzip2, 'unsupported_compression'],
    ];
    for (const [bytes, code] of cases) {
      const r = readArchive(bytes);
      expect(r.format).toBe('unknown');
      expect(r.issues.map((i) => i.code)).toEqual([code]);
      expect(r).toMatchObject({ entries: [], complete: false });
    }
  });

  it('keeps the formats it reads: an empty tar is a tar, and a nested member never opened is unknown', () => {
    expect(readArchive(new Uint8Array(1024)).format).toBe('tar');
    expect(readArchive(buildTar([{ name: 'a', data: 'x' }])).format).toBe('tar');
    expect(readArchive(gzipSync(buildTar([{ name: 'a', data: 'x' }]))).format).toBe('tar.gz');
    expect(readArchive(gzipSync(new TextEncoder().encode('text'))).format).toBe('gzip');
    expect(readArchive(buildZip([{ name: 'a', data: 'x' }])).format).toBe('zip');
    expect(readNested({ path: 'big.tgz', kind: 'file', size: 10 }, 1).format).toBe('unknown');
  });

  it('names the issues that make a read incomplete in one typed list, and the reader follows it', () => {
    expect([...INCOMPLETE_ISSUES].sort()).toEqual(['corrupt', 'encrypted_member', 'member_too_large', 'nesting_too_deep', 'overlapping_members', 'ratio_too_high', 'too_many_members', 'total_too_large', 'truncated', 'unsupported_compression']);
    const flagged = readArchive(buildTar([{ name: '/etc/x', data: 'x' }, { name: 'ln', type: '2', linkname: '/etc' }]));
    expect(flagged.issues.map((i) => i.code)).toEqual(['absolute_path', 'link_member']);
    expect(flagged.complete).toBe(true);
    const cut = readArchive(buildZip([{ name: 'secret', data: 'x', encrypted: true }]));
    expect(INCOMPLETE_ISSUES.has('encrypted_member')).toBe(true);
    expect(cut.complete).toBe(false);
  });
});
