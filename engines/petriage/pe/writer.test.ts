// The writer and the dissector against each other: every feature the writer puts in a PE comes back out of dissect.
import { describe, expect, it } from 'vitest';
import { dissect } from './dissect.js';
import { buildPe, type PeBuildSpec } from './writer.js';

const guid = Uint8Array.from([0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56, 0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44]);
const randomBytes = Uint8Array.from({ length: 8192 }, (_, i) => (i * 2654435761) >>> 24);

const full: PeBuildSpec = {
  dll: true,
  timestamp: 0x5e000000,
  imports: [
    { dll: 'KERNEL32.dll', symbols: ['CreateFileW', 'ReadFile', 'CloseHandle'] },
    { dll: 'WS2_32.dll', symbols: [115, 'WSASocketW', 9999] },
  ],
  delayImports: [{ dll: 'USER32.dll', symbols: ['MessageBoxW', 'GetAsyncKeyState'] }],
  boundImports: [{ dll: 'KERNEL32.dll', timestamp: 0x4a5bc60f, forwarders: [{ dll: 'NTDLL.DLL', timestamp: 0x4a5bdadb }] }],
  exports: { name: 'sample.dll', base: 5, symbols: [{ name: 'Zeta' }, { name: 'Alpha' }, { ordinal: 40 }, { name: 'Forward', forwarder: 'NTDLL.RtlExitUserThread' }] },
  resources: [
    { type: 10, name: 'CONFIG', language: 0x407, data: new TextEncoder().encode('key=value') },
    { type: 'PAYLOAD', name: 3, data: randomBytes.subarray(0, 512) },
  ],
  versionInfo: { strings: { CompanyName: 'Example Ltd', FileDescription: 'Führungs-Tool ©', OriginalFilename: 'sample.dll' }, fileVersion: [2, 1, 0, 7] },
  manifest: '<assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0"><trustInfo/></assembly>',
  tlsCallbacks: 2,
  pdb: { path: 'D:\\work\\sample\\Release\\sample.pdb', guid, age: 7 },
  rich: [
    { productId: 0x104, build: 30148, count: 9 },
    { productId: 0x105, build: 30148, count: 23 },
  ],
  strings: ['http://update.example.invalid/check', 'Global\\SampleMutex'],
  wideStrings: ['Software\\Example\\Run'],
  sections: [
    { name: '.zero', data: new Uint8Array(2048) },
    { name: '.rand', data: randomBytes, characteristics: 0x60000020 },
  ],
  overlay: new TextEncoder().encode(`\0${'OVERLAY-DATA'.repeat(10)}\0`),
  certificate: new Uint8Array(300).fill(0x30),
};

describe('buildPe + dissect', () => {
  for (const format of ['PE32', 'PE32+'] as const) {
    describe(format, () => {
      const bytes = buildPe({ ...full, format });
      const d = dissect(bytes);

      it('headers', () => {
        expect(d.format).toBe(format);
        expect(d.is_dll).toBe(true);
        expect(d.file_header.machine_name).toBe(format === 'PE32' ? 'IMAGE_FILE_MACHINE_I386' : 'IMAGE_FILE_MACHINE_AMD64');
        expect(d.file_header.timestamp).toBe(0x5e000000);
        expect(d.optional_header.image_base).toBe(format === 'PE32' ? '0x10000000' : '0x180000000');
        expect(d.optional_header.checksum).toBe(d.optional_header.checksum_computed);
        expect(d.entry_point.section).toBe('.text');
        expect(d.notes.filter((n) => !/writable and executable/.test(n))).toEqual([]);
      });

      it('sections, with their entropy', () => {
        expect(d.sections.map((s) => s.name)).toEqual(['.text', '.rdata', '.data', '.rsrc', '.zero', '.rand']);
        expect(d.sections.find((s) => s.name === '.zero')?.entropy).toBe(0);
        expect(d.sections.find((s) => s.name === '.rand')?.entropy).toBeGreaterThan(7.9);
        expect(d.sections.find((s) => s.name === '.text')?.flags).toEqual(expect.arrayContaining(['CNT_CODE', 'MEM_EXECUTE']));
      });

      it('imports by name and by ordinal, with hints and ordinal names, delay-load and bound imports', () => {
        expect(d.imports.map((x) => x.dll)).toEqual(['KERNEL32.dll', 'WS2_32.dll']);
        expect(d.imports[0]?.symbols.map((s) => [s.name, s.hint])).toEqual([
          ['CreateFileW', 0],
          ['ReadFile', 1],
          ['CloseHandle', 2],
        ]);
        expect(d.imports[1]?.symbols.map((s) => [s.by_ordinal, s.ordinal, s.name ?? s.ordinal_name])).toEqual([
          [true, 115, 'WSAStartup'],
          [false, null, 'WSASocketW'],
          [true, 9999, 'ord9999'],
        ]);
        expect(d.delay_imports.map((x) => [x.dll, x.symbols.map((s) => s.name)])).toEqual([['USER32.dll', ['MessageBoxW', 'GetAsyncKeyState']]]);
        expect(d.bound_imports).toEqual([{ dll: 'KERNEL32.dll', timestamp: 0x4a5bc60f, forwarders: [{ dll: 'NTDLL.DLL', timestamp: 0x4a5bdadb }] }]);
        // lib.func, lower case, extension stripped, ordinals named from pefile's table.
        expect(d.imphash).toMatch(/^[0-9a-f]{32}$/);
        expect(d.imphash_with_delay).not.toBe(d.imphash);
      });

      it('exports: names, an ordinal-only export and a forwarder', () => {
        expect(d.exports?.dll_name).toBe('sample.dll');
        expect(d.exports?.ordinal_base).toBe(5);
        const byOrdinal = new Map(d.exports?.symbols.map((s) => [s.ordinal, s]));
        expect(byOrdinal.get(5)?.name).toBe('Zeta');
        expect(byOrdinal.get(6)?.name).toBe('Alpha');
        expect(byOrdinal.get(40)?.name).toBeNull();
        expect(byOrdinal.get(7)?.forwarder).toBe('NTDLL.RtlExitUserThread');
        expect(d.exports?.symbols.length).toBe(4);
      });

      it('resources, version information and the manifest', () => {
        expect(d.resources.types.map((t) => t.type)).toEqual(['PAYLOAD', 'RT_RCDATA', 'RT_VERSION', 'RT_MANIFEST']);
        const config = d.resources.entries.find((e) => e.name === 'CONFIG');
        expect(config).toMatchObject({ type: 'RT_RCDATA', type_id: 10, language: 0x07, sublanguage: 0x01, size: 9 });
        expect(new TextDecoder().decode(bytes.subarray(config?.offset ?? 0, (config?.offset ?? 0) + 9))).toBe('key=value');
        expect(d.resources.version_info).toEqual({
          strings: { CompanyName: 'Example Ltd', FileDescription: 'Führungs-Tool ©', OriginalFilename: 'sample.dll' },
          file_version: '2.1.0.7',
          product_version: '2.1.0.7',
        });
        expect(d.resources.manifest).toBe(full.manifest);
      });

      it('TLS callbacks, the CodeView PDB record and the Rich header', () => {
        expect(d.tls?.callbacks.length).toBe(2);
        const text = d.sections.find((s) => s.name === '.text');
        for (const cb of d.tls?.callbacks ?? []) expect(cb).toBeGreaterThanOrEqual(text?.virtual_address ?? Infinity);
        const cv = d.debug[0]?.codeview;
        expect(cv).toEqual({
          signature: 'RSDS',
          guid: '12345678-1234-5678-9abc-def011223344',
          age: 7,
          symbol_key: '12345678123456789ABCDEF0112233447',
          pdb_path: 'D:\\work\\sample\\Release\\sample.pdb',
        });
        expect(d.rich_header?.checksum_valid).toBe(true);
        expect(d.rich_header?.entries).toEqual([
          { product_id: 0x104, build: 30148, count: 9 },
          { product_id: 0x105, build: 30148, count: 23 },
        ]);
      });

      it('strings, overlay and the certificate table', () => {
        expect(d.strings.ascii.map((s) => s.value)).toEqual(expect.arrayContaining(['http://update.example.invalid/check', 'Global\\SampleMutex', 'OVERLAY-DATA'.repeat(10)]));
        expect(d.strings.utf16le.map((s) => s.value)).toEqual(expect.arrayContaining(['Software\\Example\\Run']));
        const cert = d.certificate;
        expect(cert?.within_file).toBe(true);
        expect(cert?.entries).toEqual([{ offset: cert?.offset, length: 8 + 304, revision: 0x200, type: 2 }]);
        expect(cert !== null && cert.offset + cert.size).toBe(bytes.length);
        // pefile's rule: the overlay runs from the end of the last section to the end of the file, certificate included.
        const last = d.sections[d.sections.length - 1];
        expect(d.overlay).toEqual({ offset: (last?.raw_offset ?? 0) + (last?.raw_size ?? 0), size: bytes.length - (last?.raw_offset ?? 0) - (last?.raw_size ?? 0) });
      });
    });
  }

  it('an EXE with nothing but one import is still a complete PE', () => {
    const d = dissect(buildPe({ imports: [{ dll: 'kernel32.dll', symbols: ['ExitProcess'] }] }));
    expect(d.is_dll).toBe(false);
    expect(d.imports[0]?.symbols[0]?.name).toBe('ExitProcess');
    expect(d.exports).toBeNull();
    expect(d.overlay).toBeNull();
    expect(d.notes).toEqual([]);
  });

  it('refuses a section name longer than 8 bytes', () => {
    expect(() => buildPe({ sections: [{ name: '.toolongname', data: new Uint8Array(1) }] })).toThrow(RangeError);
  });
});
