// Unit tests of the tab helpers: strings filters, hex rows and offsets, regions, history, imports by DLL, the entropy plot, export names.
import { describe, expect, it } from 'vitest';
import type { TriageResult } from '../../../../engines/core/contracts/petriage';
import { BYTES_PER_ROW, formatRow, parseOffset, regionAt, regionsOf, rowCount, visibleRows } from './hex/model';
import { addToHistory, MAX_HISTORY, type HistoryEntry } from './history/model';
import { filterGroups, importsByDll, importsCountText } from './imports/model';
import { resultFileName, ruleFileName } from './model-export';
import { entropyBars } from './sections/model';
import { filterStrings, stringKind } from './strings/model';

function result(over: Partial<TriageResult['pe']> = {}, size = 4096, sha = 'a'.repeat(64)): TriageResult {
  return {
    sha256: sha,
    size,
    importTags: [{ dll: 'KERNEL32.dll', name: 'WriteProcessMemory', tags: ['injection'] }],
    pe: {
      sections: [
        { index: 0, name: '.text', virtual_address: 0x1000, virtual_size: 0x200, raw_offset: 0x400, raw_size: 0x200, characteristics: 0, flags: [], entropy: 6.1 },
        { index: 1, name: '.data', virtual_address: 0x2000, virtual_size: 0x200, raw_offset: 0x600, raw_size: 0x200, characteristics: 0, flags: [], entropy: 7.9 },
      ],
      imports: [{ dll: 'KERNEL32.dll', symbols: [{ name: 'WriteProcessMemory', ordinal: null, ordinal_name: null }, { name: 'ExitProcess', ordinal: null, ordinal_name: null }] }],
      delay_imports: [{ dll: 'WS2_32.dll', symbols: [{ name: null, ordinal: 23, ordinal_name: 'socket' }] }],
      overlay: { offset: 0x800, size: size - 0x800, entropy: 7.5 },
      headers_entropy: 1.25,
      certificate: { offset: 0xc00, size: 0x100, within_file: true },
      strings: { ascii: 2, utf16le: 1, truncated: false, items_truncated: false, items: [] },
      ...over,
    },
  } as unknown as TriageResult;
}

describe('strings', () => {
  it('kinds', () => {
    expect(stringKind('http://evil.example/x')).toBe('url');
    expect(stringKind('SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run')).toBe('registry');
    expect(stringKind('HKEY_LOCAL_MACHINE')).toBe('registry');
    expect(stringKind('C:\\Windows\\System32\\cmd.exe')).toBe('path');
    expect(stringKind('10.0.0.12')).toBe('ip');
    expect(stringKind('hello world')).toBe('other');
  });
  it('filters by words, encoding, kind and length', () => {
    const items = [
      { offset: 1, encoding: 'ascii' as const, value: 'http://a.example/' },
      { offset: 9, encoding: 'utf16le' as const, value: 'Kernel32 wide text' },
      { offset: 30, encoding: 'ascii' as const, value: 'abcd' },
    ];
    expect(filterStrings(items, { text: '', encoding: 'all', minLength: 4, kind: 'all' })).toHaveLength(3);
    expect(filterStrings(items, { text: 'kernel32', encoding: 'all', minLength: 4, kind: 'all' }).map((s) => s.offset)).toEqual([9]);
    expect(filterStrings(items, { text: '', encoding: 'ascii', minLength: 5, kind: 'all' }).map((s) => s.offset)).toEqual([1]);
    expect(filterStrings(items, { text: '', encoding: 'all', minLength: 4, kind: 'url' }).map((s) => s.offset)).toEqual([1]);
  });
});

describe('hex view', () => {
  it('rows, visible window with overscan, row text', () => {
    expect(rowCount(0)).toBe(0);
    expect(rowCount(17)).toBe(2);
    expect(visibleRows(0, 200, 20, 1000, 5)).toEqual({ first: 0, last: 15 });
    expect(visibleRows(2000, 200, 20, 1000, 5)).toEqual({ first: 95, last: 115 });
    expect(visibleRows(0, 200, 20, 3, 5)).toEqual({ first: 0, last: 3 });
    const r = formatRow(new Uint8Array([0x4d, 0x5a, 0x90, 0, 1, 2, 3, 4, 0x41, 0x42, 0x7f, 0x20, 0xff, 0, 0, 0]));
    expect(r.hex).toBe('4d 5a 90 00 01 02 03 04  41 42 7f 20 ff 00 00 00');
    expect(r.ascii).toBe('MZ......AB. ....');
    expect(BYTES_PER_ROW).toBe(16);
  });
  it('offsets as typed, inside the file only', () => {
    expect(parseOffset('0x400', 4096)).toBe(1024);
    expect(parseOffset('400h', 4096)).toBe(1024);
    expect(parseOffset('1024', 4096)).toBe(1024);
    expect(parseOffset('4096', 4096)).toBeNull();
    expect(parseOffset('zz', 4096)).toBeNull();
    expect(parseOffset('-1', 4096)).toBeNull();
  });
  it('regions: headers, sections, overlay, and the certificate table inside the overlay', () => {
    const regions = regionsOf(result());
    expect(regions.map((r) => r.name)).toEqual(['headers', '.text', '.data', 'certificate table', 'overlay']);
    expect(regionAt(regions, 0)?.name).toBe('headers');
    expect(regionAt(regions, 0x500)?.name).toBe('.text');
    expect(regionAt(regions, 0x900)?.name).toBe('overlay');
    expect(regionAt(regions, 0xc10)?.name).toBe('certificate table');
  });
});

describe('history', () => {
  it('newest first, one entry per SHA-256, bounded', () => {
    const entry = (id: number, sha: string): HistoryEntry => ({ id, fileLabel: `f${id}`, result: result({}, 4096, sha), file: null, at: '2026-01-01T00:00:00Z' });
    let h = addToHistory([], entry(1, 'a'));
    h = addToHistory(h, entry(2, 'b'));
    h = addToHistory(h, entry(3, 'a'));
    expect(h.map((e) => e.id)).toEqual([3, 2]);
    for (let i = 4; i < 40; i++) h = addToHistory(h, entry(i, `s${i}`));
    expect(h).toHaveLength(MAX_HISTORY);
    expect(h[0]?.id).toBe(39);
  });
});

describe('imports by DLL', () => {
  it('groups with capability tags; filter by words and by tag', () => {
    const g = importsByDll(result());
    expect(g.map((x) => [x.dll, x.delay, x.functions.map((f) => f.name), x.tags])).toEqual([
      ['KERNEL32.dll', false, ['WriteProcessMemory', 'ExitProcess'], ['injection']],
      ['WS2_32.dll', true, ['socket'], []],
    ]);
    expect(filterGroups(g, '', 'injection').map((x) => x.functions.map((f) => f.name))).toEqual([['WriteProcessMemory']]);
    expect(filterGroups(g, 'ws2_32', null).map((x) => x.functions.length)).toEqual([1]);
    expect(filterGroups(g, 'exitprocess', null).map((x) => x.functions.map((f) => f.name))).toEqual([['ExitProcess']]);
  });
});

describe('entropy plot and exports', () => {
  it('bars over the file: headers, sections by offset, overlay', () => {
    const bars = entropyBars(result());
    expect(bars.map((b) => [b.label, b.kind, b.entropy])).toEqual([
      ['headers', 'headers', 1.25],
      ['.text', 'section', 6.1],
      ['.data', 'section', 7.9],
      ['overlay', 'overlay', 7.5],
    ]);
    expect(bars[1]?.x).toBeCloseTo(0x400 / 4096);
    expect(bars.reduce((n, b) => n + b.width, 0)).toBeCloseTo(1);
  });
  it('file names never come from the picked file', () => {
    expect(resultFileName('0123456789abcdef'.repeat(4))).toBe('triage-0123456789ab.json');
    expect(ruleFileName('import "pe"\nrule lockjaw_a1 {\n}')).toBe('lockjaw_a1.yar');
    expect(ruleFileName('nonsense')).toBe('rule.yar');
  });
});

describe('importsCountText', () => {
  it('makes the words agree with the counts and groups the digits', () => {
    expect(importsCountText(1, 1, 1)).toBe('1 function from 1 DLL');
    expect(importsCountText(3, 1204, 12)).toBe('3 of 1,204 functions from 12 DLLs');
    expect(importsCountText(0, 0, 0)).toBe('0 functions from 0 DLLs');
  });
});
