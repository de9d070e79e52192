// dissect against a second, independent parser: Velociraptor's expected parse_pe output (pe.out.yaml) for its test binaries.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dissect } from './dissect.js';
import type { PeDissection } from './types.js';

/** The JSON documents after each `Output:` in Velociraptor's golden file (YAML with repeated keys, so read by hand). */
function velociraptorOutputs(text: string): unknown[] {
  const out: unknown[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('\nOutput: ', from);
    if (at < 0) return out;
    const start = at + '\nOutput: '.length;
    let depth = 0;
    let inString = false;
    let end = start;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') {
        depth--;
        if (depth === 0) {
          end = i + 1;
          break;
        }
      }
    }
    out.push(JSON.parse(text.slice(start, end)));
    from = end;
  }
}

interface VeloSection {
  Perm: string;
  Name: string;
  FileOffset: number;
  VMA: number;
  RVA: number;
  Size: number;
}

interface VeloPeInfo {
  FileHeader: { Machine: string; TimeDateStampRaw: number; Characteristics: number; ImageBase: number };
  GUIDAge: string;
  PDB: string;
  Directories: Record<string, { Size: number; FileAddress: number }>;
  Sections: VeloSection[];
  Resources: { Type: string; TypeId: number; FileOffset: number; DataSize: number; CodePage: number }[];
  VersionInformation: Record<string, string>;
  Imports: string[];
  Exports: string[];
  ImpHash: string;
}

const available = hasCorpora();
const outputs = available ? velociraptorOutputs(readFileSync(corpusPath('pe', 'velociraptor', 'pe.out.yaml'), 'utf8')) : [];
const load = (name: string): PeDissection => dissect(new Uint8Array(readFileSync(corpusPath('pe', 'velociraptor', name))));

/** Velociraptor's directory names for ours. */
const DIRECTORY_NAMES: Record<string, string> = {
  Base_Relocation_Directory: 'BASERELOC',
  DotNet_Directory: 'COM_DESCRIPTOR',
  Debug_Directory: 'DEBUG',
  IAT_Directory: 'IAT',
  Import_Directory: 'IMPORT',
  Resource_Directory: 'RESOURCE',
  Export_Directory: 'EXPORT',
  Security_Directory: 'SECURITY',
  TLS_Directory: 'TLS',
  Load_Config_Directory: 'LOAD_CONFIG',
  Delay_Imports_Directory: 'DELAY_IMPORT',
  Bound_Import_Directory: 'BOUND_IMPORT',
};

describe.skipIf(!available)("dissect matches Velociraptor's parse_pe golden output", () => {
  it('finds the documents in pe.out.yaml', () => {
    expect(outputs.length).toBeGreaterThan(5);
  });

  it('3DBuilder.ResourceResolver.exe: headers, PDB, directories, sections, resources, version, imports, imphash', () => {
    const row = (outputs[0] as { Name: string; PEInfo: VeloPeInfo }[])[0];
    expect(row?.Name).toBe('3DBuilder.ResourceResolver.exe');
    const v = row?.PEInfo as VeloPeInfo;
    const d = load('3DBuilder.ResourceResolver.exe');

    expect(d.file_header.machine_name).toBe(v.FileHeader.Machine);
    expect(d.file_header.timestamp).toBe(v.FileHeader.TimeDateStampRaw);
    expect(d.file_header.characteristics).toBe(v.FileHeader.Characteristics);
    expect(Number(d.optional_header.image_base)).toBe(v.FileHeader.ImageBase);

    const cv = d.debug.find((e) => e.codeview !== null)?.codeview;
    expect(cv?.pdb_path).toBe(v.PDB);
    expect(cv?.symbol_key).toBe(v.GUIDAge);

    for (const [veloName, entry] of Object.entries(v.Directories)) {
      const ours = d.data_directories.find((x) => x.name === DIRECTORY_NAMES[veloName]);
      expect({ dir: veloName, rva: ours?.virtual_address, size: ours?.size }).toEqual({ dir: veloName, rva: entry.FileAddress, size: entry.Size });
    }
    const nonEmpty = d.data_directories.filter((x) => x.virtual_address !== 0).map((x) => x.name).sort();
    expect(nonEmpty).toEqual(Object.keys(v.Directories).map((k) => DIRECTORY_NAMES[k]).sort());

    const base = Number(d.optional_header.image_base);
    expect(
      d.sections.map((s) => ({
        Perm: `${s.flags.includes('MEM_EXECUTE') ? 'x' : '-'}${s.flags.includes('MEM_READ') ? 'r' : '-'}${s.flags.includes('MEM_WRITE') ? 'w' : '-'}`,
        Name: s.name,
        FileOffset: s.raw_offset,
        VMA: base + s.virtual_address,
        RVA: s.virtual_address,
        Size: s.raw_size,
      })),
    ).toEqual(v.Sections);

    expect(
      d.resources.entries.map((r) => ({ Type: r.type, TypeId: r.type_id, FileOffset: r.offset, DataSize: r.size, CodePage: r.code_page })),
    ).toEqual(v.Resources);
    expect(d.resources.version_info?.strings).toEqual(v.VersionInformation);
    expect(d.imports.flatMap((x) => x.symbols.map((s) => `${x.dll}!${s.name ?? `#${s.ordinal}`}`))).toEqual(v.Imports);
    expect(d.exports?.symbols ?? []).toEqual(v.Exports);
    expect(d.imphash).toBe(v.ImpHash);
  });

  it('notnbt.exe: size, version information and hashes (BinaryRename)', () => {
    const doc = outputs.find(
      (o): o is { Name: string; Size: number; VersionInformation: Record<string, string>; Hash: { SHA256: string } }[] =>
        Array.isArray(o) && (o[0] as { Name?: string } | undefined)?.Name === 'notnbt.exe',
    );
    const row = doc?.[0];
    expect(row).toBeDefined();
    const d = load('notnbt.exe');
    expect(d.size).toBe(row?.Size);
    expect(d.sha256).toBe(row?.Hash.SHA256);
    expect(d.resources.version_info?.strings).toEqual(row?.VersionInformation);
  });

  it('wkscli.dll: forwarded exports (ForwardedImports)', () => {
    const doc = outputs.find(
      (o): o is { ForwardedImport: string; DllImportPath: string }[] =>
        Array.isArray(o) && typeof (o[0] as { ForwardedImport?: unknown } | undefined)?.ForwardedImport === 'string',
    );
    expect(doc?.length).toBe(3);
    const d = load('wkscli.dll');
    const forwarders = (d.exports?.symbols ?? []).map((s) => s.forwarder).filter((f): f is string => f !== null);
    expect(forwarders.slice(0, 3)).toEqual(doc?.map((x) => x.ForwardedImport));
    for (const [i, f] of forwarders.slice(0, 3).entries()) expect(f.slice(0, f.lastIndexOf('.'))).toBe(doc?.[i]?.DllImportPath);
  });
});
