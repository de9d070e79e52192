// Tests for evidence access: the root and symbolic links, read-only opening, 1 MiB hashing chunks, lines and CSV records with their offsets.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import { EVIDENCE_ROOT_ENV, EvidenceFile, HASH_CHUNK_SIZE, evidenceRootFromEnv, fileSha256, listEvidenceFolder, resolveEvidence } from './evidence.js';
import { csvFields, csvRecords, linesOf } from './text.js';
import { refusal } from '../core/errors.fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function layout(): { base: string; root: string; outside: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'forensic-evidence-'));
  dirs.push(base);
  const root = path.join(base, 'evidence');
  mkdirSync(path.join(root, 'host1'), { recursive: true });
  writeFileSync(path.join(root, 'host1', 'auth.log'), 'Jun 14 15:16:01 combo sshd[1]: hello\n');
  const outside = path.join(base, 'secret.txt');
  writeFileSync(outside, 'not evidence\n');
  return { base, root, outside };
}

describe('resolveEvidence', () => {
  it('accepts paths below the root, relative ones taken from the root', () => {
    const { root } = layout();
    const p = resolveEvidence(root, 'host1/auth.log');
    expect(p.relative).toBe('host1/auth.log');
    expect(p.isDirectory).toBe(false);
    expect(resolveEvidence(root, path.join(root, 'host1')).isDirectory).toBe(true);
    expect(resolveEvidence(root, root).relative).toBe('.');
  });

  it('refuses paths outside the root, and links that lead out of it, without naming them', () => {
    const { root, outside } = layout();
    symlinkSync(outside, path.join(root, 'host1', 'escape.log'));
    symlinkSync(path.dirname(outside), path.join(root, 'up'));
    symlinkSync(path.join(root, 'host1', 'auth.log'), path.join(root, 'inside.log'));
    for (const target of [outside, '../secret.txt', 'host1/../../secret.txt', 'host1/escape.log', 'up/secret.txt']) {
      const err = refusal(() => resolveEvidence(root, target));
      expect(err.code).toBe('forbidden');
      expect(err.message).not.toContain('secret');
      expect(err.message).not.toContain(root);
    }
    expect(resolveEvidence(root, 'inside.log').relative).toBe('host1/auth.log');
    expect(refusal(() => resolveEvidence(root, 'host1/missing.log')).code).toBe('not_found');
    // A missing path may have been meant as a file or a folder: the answer says neither is there.
    expect(refusal(() => resolveEvidence(root, 'host9/logs')).message).toBe('no evidence file or folder at that path');
    expect(refusal(() => resolveEvidence(path.join(root, 'nope'), 'x')).code).toBe('not_found');
  });

  it('refuses what is neither a file nor a folder (a FIFO would hang a reader)', () => {
    const { root } = layout();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    expect(refusal(() => resolveEvidence(root, 'pipe')).code).toBe('validation_failed');
    expect(refusal(() => new EvidenceFile(path.join(root, 'pipe'))).code).toBe('validation_failed');
  });

  it('takes the root from FORENSIC_EVIDENCE_ROOT, else the fallback', () => {
    expect(evidenceRootFromEnv({ [EVIDENCE_ROOT_ENV]: '/srv/evidence' }, '/tmp')).toBe('/srv/evidence');
    expect(evidenceRootFromEnv({}, '/tmp/x')).toBe('/tmp/x');
  });
});

describe('EvidenceFile and fileSha256', () => {
  it('hash in 1 MiB chunks and agree with a one-shot hash', () => {
    const { root } = layout();
    const file = path.join(root, 'big.bin');
    const bytes = Buffer.alloc(3 * HASH_CHUNK_SIZE + 5);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    const f = new EvidenceFile(file);
    try {
      expect([...f.chunks()].map((c) => c.length)).toEqual([HASH_CHUNK_SIZE, HASH_CHUNK_SIZE, HASH_CHUNK_SIZE, 5]);
      expect(f.read(HASH_CHUNK_SIZE - 2, 4)).toEqual(bytes.subarray(HASH_CHUNK_SIZE - 2, HASH_CHUNK_SIZE + 2));
      expect(f.read(bytes.length - 1, 10)).toHaveLength(1);
    } finally {
      f.close();
    }
    const expected = createHash('sha256').update(bytes).digest('hex');
    expect(fileSha256(file)).toBe(expected);
    expect(fileSha256('big.bin', { root })).toBe(expected);
    expect(refusal(() => fileSha256('../secret.txt', { root })).code).toBe('forbidden');
  });

  it('refuses to open a symbolic link (swapped in after the check)', () => {
    const { root, outside } = layout();
    const link = path.join(root, 'link');
    symlinkSync(outside, link);
    expect(refusal(() => new EvidenceFile(link)).code).toBe('forbidden');
  });
});

describe('linesOf', () => {
  it('keeps offsets and terminators across block boundaries', () => {
    const text = 'alpha\r\nbeta\n\ngamma-without-newline';
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 64]) {
      const blocks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) blocks.push(Buffer.from(bytes.subarray(i, i + size)));
      const lines = [...linesOf(blocks)].map((l) => ({ n: l.number, o: l.offset, t: l.text, term: l.terminator, raw: Buffer.from(l.bytes).toString() }));
      expect(lines).toEqual([
        { n: 1, o: 0, t: 'alpha', term: 2, raw: 'alpha' },
        { n: 2, o: 7, t: 'beta', term: 1, raw: 'beta' },
        { n: 3, o: 12, t: '', term: 1, raw: '' },
        { n: 4, o: 13, t: 'gamma-without-newline', term: 0, raw: 'gamma-without-newline' },
      ]);
    }
  });

  it('skips and reports lines over the limit, and flags invalid UTF-8', () => {
    const long: number[] = [];
    const lines = [...linesOf([Buffer.from('ok\n'), Buffer.from('x'.repeat(50)), Buffer.from('y'.repeat(50) + '\nnext\n'), Buffer.from([0xff, 0xfe, 0x41, 0x0a])], { maxLineBytes: 64, onTooLong: (n) => long.push(n) })];
    expect(lines.map((l) => [l.number, l.text])).toEqual([
      [1, 'ok'],
      [3, 'next'],
      [4, '\uFFFD\uFFFDA'],
    ]);
    expect(long).toEqual([2]);
    expect(lines[2]?.invalidUtf8).toBe(true);
  });

  it('reads lines that lie whole inside one block the same way: the limit, the UTF-8 flag of each line, the offsets', () => {
    const long: number[] = [];
    const block = Buffer.concat([Buffer.from(`ok\n${'z'.repeat(65)}\n${'w'.repeat(64)}\n`), Buffer.from([0xff, 0x0a]), Buffer.from('fine\nlast')]);
    const lines = [...linesOf([block], { maxLineBytes: 64, onTooLong: (n, offset) => long.push(n, offset) })];
    expect(lines.map((l) => [l.number, l.offset, l.text, l.invalidUtf8, l.terminator])).toEqual([
      [1, 0, 'ok', false, 1],
      [3, 69, 'w'.repeat(64), false, 1],
      [4, 134, '\uFFFD', true, 1],
      [5, 136, 'fine', false, 1],
      [6, 141, 'last', false, 0],
    ]);
    expect(long).toEqual([2, 3]);
  });

  it('decodes each line as the strict UTF-8 decoder does, or the lenient one with the flag when the bytes are invalid', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const lenient = new TextDecoder('utf-8');
    const reference = (b: Uint8Array): [string, boolean] => {
      try {
        return [strict.decode(b), false];
      } catch {
        return [lenient.decode(b), true];
      }
    };
    // Invalid sequences (lone continuation, overlong, encoded surrogates, past U+10FFFF, cut short), a U+FFFD the line
    // holds, byte order marks (one is dropped per line; line 1 drops a second), and text in every UTF-8 length.
    const crafted = [
      [0x80], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf0, 0x80, 0x80, 0x80],
      [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80], [0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xef, 0xbf, 0xbd], [0xef, 0xbb, 0xbf],
      [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41], [0x41, 0xef, 0xbb, 0xbf], [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80],
    ];
    // Random lines drawn from bytes that make valid and invalid UTF-8 (a fixed seed, so a failure repeats).
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const alphabet = [0x41, 0x7a, 0x20, 0x0d, 0x00, 0x7f, 0x80, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xbb, 0xbd, 0xf0, 0xf4, 0x9f, 0x98, 0xa0, 0xfe, 0xff];
    const random = Array.from({ length: 3000 }, () => Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)] as number));
    const bodies = [...crafted, ...random];
    for (const first of [[0x41], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x42]]) {
      const all = [first, ...bodies];
      const bytes = Buffer.concat(all.map((b) => Buffer.from([...b, 0x0a])));
      const lines = [...linesOf([bytes])];
      expect(lines).toHaveLength(all.length);
      lines.forEach((l, i) => {
        const body = Buffer.from(all[i] as number[]);
        const crlf = body.length > 0 && body[body.length - 1] === 0x0d;
        const [text, invalid] = reference(crlf ? body.subarray(0, -1) : body);
        expect([l.text, l.invalidUtf8]).toEqual([i === 0 ? text.replace(/^\uFEFF/, '') : text, invalid]);
      });
    }
  });
});

describe('CSV records', () => {
  it('split quoted fields with doubled quotes, separators and line breaks', () => {
    expect(csvFields('a,"b,c","say ""hi""",,"multi\nline"')).toEqual(['a', 'b,c', 'say "hi"', '', 'multi\nline']);
    expect(csvFields('x|"y|z"', '|')).toEqual(['x', 'y|z']);
  });

  it('span lines inside quotes, with the byte range and hash of the whole record', () => {
    const text = 'h1,h2\r\n1,"two\r\nlines"\r\n\r\n3,four\n5,"never closed\n';
    const bytes = Buffer.from(text);
    const unterminated: number[] = [];
    const recs = [...csvRecords(linesOf([bytes]), { onUnterminated: (line) => unterminated.push(line) })];
    expect(recs.map((r) => r.fields)).toEqual([['h1', 'h2'], ['1', 'two\nlines'], ['3', 'four']]);
    expect(recs.map((r) => [r.line, r.lines])).toEqual([
      [1, 1],
      [2, 2],
      [5, 1],
    ]);
    for (const r of recs) expect(r.rawSha256).toBe(sha256Hex(bytes.subarray(r.offset, r.offset + r.length)));
    expect(unterminated).toEqual([6]);
  });
});

describe('listEvidenceFolder (the evidence browser)', () => {
  it('lists folders first then files by name, links only when they stay below the root, and at most `max` entries', () => {
    const { base, root, outside } = layout();
    writeFileSync(path.join(root, 'b.evtx'), 'x');
    writeFileSync(path.join(root, 'a.evtx'), 'xyz');
    symlinkSync(outside, path.join(root, 'leaves'));
    symlinkSync(path.join(root, 'host1', 'auth.log'), path.join(root, 'inside'));
    symlinkSync(base, path.join(root, 'up'));
    const l = listEvidenceFolder(root, '.', 10);
    expect(l.path).toBe('.');
    expect(l.entries.map((e) => `${e.type}:${e.path}:${e.size ?? ''}`)).toEqual(['folder:host1:', 'file:a.evtx:3', 'file:b.evtx:1', 'file:inside:37']);
    expect(listEvidenceFolder(root, '.', 2)).toMatchObject({ truncated: true, entries: [{ name: 'host1' }, { name: 'a.evtx' }] });
    expect(listEvidenceFolder(root, 'host1', 10).entries.map((e) => e.path)).toEqual(['host1/auth.log']);
  });

  it('refuses the parent, a link that leaves, a file and a missing folder, naming none', () => {
    const { base, root } = layout();
    symlinkSync(base, path.join(root, 'up'));
    for (const [target, code] of [
      ['..', 'forbidden'],
      ['host1/../..', 'forbidden'],
      ['up', 'forbidden'],
      ['host1/auth.log', 'validation_failed'],
      ['nope', 'not_found'],
    ] as const) {
      const e = refusal(() => listEvidenceFolder(root, target, 10));
      expect(e.code, target).toBe(code);
      expect(e.message).not.toContain(base);
    }
  });
});
