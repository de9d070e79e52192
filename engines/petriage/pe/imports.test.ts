// The import hash over hand-made lists: pefile's terms, and MD5 over their Latin-1 bytes whatever the characters.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imphash } from './imports.js';
import type { PeImportedDll, PeImportedSymbol } from './types.js';

const sym = (name: string | null, ordinal: number | null = null): PeImportedSymbol => ({
  name,
  ordinal,
  ordinal_name: null,
  hint: null,
  by_ordinal: name === null,
  iat_rva: 0,
  thunk_offset: 0,
});

describe('imphash', () => {
  it('hashes lower-cased lib.func terms, with ordinal names from the frozen tables', () => {
    const dlls: PeImportedDll[] = [
      { dll: 'KERNEL32.dll', descriptor_offset: 0, symbols: [sym('CreateFileW'), sym(null, 7)] },
      { dll: 'WS2_32.dll', descriptor_offset: 0, symbols: [sym(null, 23)] },
    ];
    const text = 'kernel32.createfilew,kernel32.ord7,ws2_32.socket';
    expect(imphash(dlls)).toBe(createHash('md5').update(text, 'latin1').digest('hex'));
  });

  it('hashes the Latin-1 bytes of characters above 0x7f (not their UTF-8)', () => {
    const dlls: PeImportedDll[] = [{ dll: 'caf\u00e9.dll', descriptor_offset: 0, symbols: [sym('f\u00fc')] }];
    expect(imphash(dlls)).toBe(createHash('md5').update(Buffer.from('caf\u00e9.f\u00fc', 'latin1')).digest('hex'));
    expect(imphash([])).toBe('');
  });
});
