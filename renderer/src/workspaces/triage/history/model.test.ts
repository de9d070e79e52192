// Unit tests of the stored history helpers: a stored analysis as an entry (bytes borrowed from this window when the hash
// matches), the query the History panel sends, row keys, and the keyboard moves between rows.
import { describe, expect, it } from 'vitest';
import type { StoredAnalysis, TriageResult } from '../../../../../engines/core/contracts/petriage';
import { entryFromStored, entryKey, MAX_FILE_NAME, rowAfterKey, shortSha, STORED_PAGE, storedQuery, storedWhen, uploadName, visibleName, type HistoryEntry } from './model';

const sha = 'ab'.repeat(32);
const result = { sha256: sha, verdict: 'MALICIOUS' } as unknown as TriageResult;
const stored: StoredAnalysis = { id: '11111111-2222-4333-8444-555555555555', sha256: sha, fileName: null, size: 10, createdAt: '2026-11-27T06:12:53.123Z', verdict: 'MALICIOUS', score: 0.9, family: 'keywren', modelType: 'linear', result };

describe('a stored analysis on screen', () => {
  it('has no bytes unless this window holds a file with the same SHA-256', () => {
    const alone = entryFromStored(stored, []);
    expect(alone).toMatchObject({ storedId: stored.id, file: null, at: stored.createdAt, result });
    expect(alone.fileLabel).toContain(sha.slice(0, 16));
    const file = new Blob([new Uint8Array([0x4d, 0x5a])]);
    const inWindow: HistoryEntry[] = [
      { id: 1, fileLabel: 'other.exe', result: { ...result, sha256: 'cd'.repeat(32) }, file, at: 'x' },
      { id: 2, fileLabel: 'same.exe', result, file, at: 'x' },
    ];
    const borrowed = entryFromStored(stored, inWindow);
    expect(borrowed.file).toBe(file);
    expect(borrowed.fileLabel).toBe('same.exe');
    expect(entryKey(borrowed)).toBe(`stored:${stored.id}`);
    expect(entryKey(inWindow[0] as HistoryEntry)).toBe('window:1');
  });

  it('is labelled with the name its upload gave when there is one (bidirectional controls written out)', () => {
    expect(entryFromStored({ ...stored, fileName: 'invoice.exe' }, []).fileLabel).toBe('invoice.exe');
    const file = new Blob([new Uint8Array([0x4d, 0x5a])]);
    const inWindow: HistoryEntry[] = [{ id: 2, fileLabel: 'renamed-here.exe', result, file, at: 'x' }];
    expect(entryFromStored({ ...stored, fileName: 'invoice.exe' }, inWindow)).toMatchObject({ fileLabel: 'invoice.exe', file });
    expect(entryFromStored({ ...stored, fileName: 'report\u202Egpj.exe' }, []).fileLabel).toBe('report⟨U+202E⟩gpj.exe');
    expect(shortSha(sha)).toBe(`${sha.slice(0, 16)}…`);
  });
});

describe('the name sent with an upload', () => {
  it('is the base name, trimmed; a name the service would refuse is not sent', () => {
    expect(uploadName('sample.exe')).toBe('sample.exe');
    expect(uploadName('  Invoice (1).exe ')).toBe('Invoice (1).exe');
    expect(uploadName('C:\\fakepath\\tool.dll')).toBe('tool.dll');
    expect(uploadName('/home/a/b.scr')).toBe('b.scr');
    expect(uploadName('é'.repeat(MAX_FILE_NAME))).toBe('é'.repeat(MAX_FILE_NAME));
    expect(uploadName('😀'.repeat(MAX_FILE_NAME))).toBe('😀'.repeat(MAX_FILE_NAME));
    expect(uploadName('x'.repeat(MAX_FILE_NAME + 1))).toBeUndefined();
    for (const refused of ['', '   ', '.', '..', 'dir/', 'a\nb.exe', 'a\u0000.exe', 'a\u007f.exe', 'a\u0085.exe']) expect(uploadName(refused), JSON.stringify(refused)).toBeUndefined();
  });

  it('prints bidirectional controls as their code and leaves other text alone', () => {
    expect(visibleName('Résumé 2026 — 東京.exe')).toBe('Résumé 2026 — 東京.exe');
    expect(visibleName('a\u202Eb\u2066c\u200Fd')).toBe('a⟨U+202E⟩b⟨U+2066⟩c⟨U+200F⟩d');
  });
});

describe('the History query', () => {
  it('pages, adds only the filters given, sends the box as q (a file name part or a SHA-256 start), refuses what the route would', () => {
    expect(storedQuery({ verdict: '', text: '' }, 0)).toEqual({ query: { limit: STORED_PAGE, offset: 0 } });
    expect(storedQuery({ verdict: 'BENIGN', text: ' ABcd ' }, 40)).toEqual({ query: { limit: STORED_PAGE, offset: 40, verdict: 'BENIGN', q: 'ABcd' } });
    // A name is not a hash: it goes as typed (trimmed), not refused.
    expect(storedQuery({ verdict: '', text: ' invoice march.exe ' }, 0)).toEqual({ query: { limit: STORED_PAGE, offset: 0, q: 'invoice march.exe' } });
    expect(storedQuery({ verdict: '', text: '   ' }, 0)).toEqual({ query: { limit: STORED_PAGE, offset: 0 } });
    expect(storedQuery({ verdict: '', text: 'a'.repeat(MAX_FILE_NAME) }, 0)).toHaveProperty('query');
    expect(storedQuery({ verdict: '', text: 'a'.repeat(MAX_FILE_NAME + 1) }, 0)).toHaveProperty('problem');
    expect(storedQuery({ verdict: '', text: 'a\u0007b' }, 0)).toHaveProperty('problem');
  });

  it('writes times as UTC minutes', () => {
    expect(storedWhen(stored.createdAt)).toBe('2026-11-27 06:12 UTC');
    expect(storedWhen('not a time')).toBe('not a time');
  });
});

describe('keys between rows', () => {
  it('arrows move one row and stop at the ends; Home and End jump; other keys are left alone', () => {
    expect(rowAfterKey('ArrowDown', 0, 3)).toBe(1);
    expect(rowAfterKey('ArrowDown', 2, 3)).toBe(2);
    expect(rowAfterKey('ArrowUp', 0, 3)).toBe(0);
    expect(rowAfterKey('End', 0, 3)).toBe(2);
    expect(rowAfterKey('Home', 2, 3)).toBe(0);
    expect(rowAfterKey('Enter', 1, 3)).toBeNull();
    expect(rowAfterKey('ArrowDown', 0, 0)).toBeNull();
  });
});
