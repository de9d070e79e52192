// The import hash over hand-made lists: pefile's terms, and MD5 over their Latin-1 bytes whatever the characters.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dissect } from './dissect.js';
import { imphash, imphashPair } from './imports.js';
import { syntheticPes } from './synthetic.js';
import { buildPe } from './writer.js';
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

  it('gives the same hashes from dissect\'s byte path (imphashPair) as from the terms, with and without delay-load imports', () => {
    const md5 = (text: string): string => createHash('md5').update(Buffer.from(text, 'latin1')).digest('hex');
    const kernel: PeImportedDll = { dll: 'KERNEL32.DLL', descriptor_offset: 0, symbols: [sym('CreateFileW'), sym(null, 7)] };
    const ole: PeImportedDll = { dll: 'OleAut32.dll', descriptor_offset: 0, symbols: [sym(null, 2), sym(null, 9999)] };
    const driver: PeImportedDll = { dll: 'ntoskrnl.exe', descriptor_offset: 0, symbols: [sym('IoCreateDevice')] };
    const latin: PeImportedDll = { dll: 'USER32.dll', descriptor_offset: 0, symbols: [sym('Gr\u00dc\u00dfe')] };
    const empty: PeImportedDll = { dll: 'x.dll', descriptor_offset: 0, symbols: [sym('')] };
    expect(imphashPair([kernel, ole], [driver])).toEqual({
      plain: md5('kernel32.createfilew,kernel32.ord7,oleaut32.sysallocstring,oleaut32.ord9999'),
      withDelay: md5('kernel32.createfilew,kernel32.ord7,oleaut32.sysallocstring,oleaut32.ord9999,ntoskrnl.exe.iocreatedevice'),
    });
    expect(imphashPair([], [driver])).toEqual({ plain: '', withDelay: md5('ntoskrnl.exe.iocreatedevice') });
    expect(imphashPair([kernel], [])).toEqual({ plain: imphash([kernel]), withDelay: imphash([kernel]) });
    // A name with characters above 0x7f, in either list, goes through the lowering of the terms one by one.
    expect(imphashPair([kernel], [latin])).toEqual({ plain: imphash([kernel]), withDelay: imphash([kernel, latin]) });
    expect(imphashPair([latin], [kernel])).toEqual({ plain: md5('user32.gr\u00fc\u00dfe'), withDelay: imphash([latin, kernel]) });
    // A list whose symbols give no terms hashes the empty text; its delay-load hash holds no stray comma.
    expect(imphashPair([empty], [kernel])).toEqual({ plain: md5(''), withDelay: imphash([kernel]) });
  });

  it('gives dissect\'s hashes, written from the file\'s bytes as each DLL is read, equal to those of its lists', () => {
    let delay = 0;
    let ordinalNames = 0;
    for (const bytes of syntheticPes(200, 3)) {
      const d = dissect(bytes);
      if (d.delay_imports.length > 0) delay++;
      if (d.imports.some((x) => x.symbols.some((s) => s.ordinal_name !== null))) ordinalNames++;
      expect(d.imphash).toBe(imphash(d.imports));
      expect(d.imphash_with_delay).toBe(imphash([...d.imports, ...d.delay_imports]));
    }
    // The set holds both kinds the byte path writes apart: delay-load tables, and ordinals named from the tables.
    expect(delay).toBeGreaterThan(10);
    expect(ordinalNames).toBeGreaterThan(10);
  });

  it('writes ordinals as the frozen tables name them, else as ordN with every digit count, in both formats', () => {
    const md5 = (text: string): string => createHash('md5').update(text, 'latin1').digest('hex');
    for (const format of ['PE32', 'PE32+'] as const) {
      const d = dissect(
        buildPe({
          format,
          imports: [
            { dll: 'MFC42.DLL', symbols: [1, 10, 4711, 65535, 'AfxWinMain', 123] },
            { dll: 'WS2_32.dll', symbols: [23, 500] },
            { dll: 'oleaut32.dll', symbols: [2, 9999] },
          ],
          delayImports: [{ dll: 'Custom.Sys', symbols: [99999 & 0xffff, 7] }],
        }),
      );
      const plain = 'mfc42.ord1,mfc42.ord10,mfc42.ord4711,mfc42.ord65535,mfc42.afxwinmain,mfc42.ord123,ws2_32.socket,ws2_32.wep,oleaut32.sysallocstring,oleaut32.ord9999';
      expect(d.imphash).toBe(md5(plain));
      expect(d.imphash_with_delay).toBe(md5(`${plain},custom.ord34463,custom.ord7`));
      expect(d.imphash_with_delay).toBe(imphash([...d.imports, ...d.delay_imports]));
    }
  });
});
