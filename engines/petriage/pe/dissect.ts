// `dissect`: the whole static structure of a PE file from its bytes, every read bounds-checked, damage reported as notes.
import { sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { histogramEntropy } from '../entropy.js';
import { extractStrings } from '../strings.js';
import { DIR } from './constants.js';
import { findOverlay, readCertificates, readDebug, readRich, readTls } from './directories.js';
import { readExports } from './exports.js';
import { Notes, describeDirectories, parseHeaders, type RawDirectory } from './headers.js';
import { ByteReader, PeRangeError } from './image.js';
import { imphash, readBoundImports, readImportDirectory, type ImportContext } from './imports.js';
import { readResources } from './resources.js';
import type { PeDissection, PeImportedDll, PeResources } from './types.js';

const KERNEL_MODULES = new Set(['ntoskrnl.exe', 'hal.dll', 'ndis.sys', 'bootvid.dll', 'kdcom.dll']);

/**
 * Dissects a PE32 or PE32+ file. Throws VitrineError('parse_error') when the bytes are not a PE;
 * anything damaged past the headers becomes a note and the dissection goes on.
 */
export function dissect(data: Uint8Array): PeDissection {
  if (!(data instanceof Uint8Array)) throw new VitrineError('validation_failed', 'dissect expects the file as bytes');
  const r = new ByteReader(data);
  const notes = new Notes();
  const h = parseHeaders(r, notes);
  const { image } = h;
  const plus = h.format === 'PE32+';

  const epSection = image.sectionByRva(h.entryPoint);
  const epOffset = epSection === undefined ? null : image.tryOffset(h.entryPoint);
  if (epSection === undefined) notes.add(`AddressOfEntryPoint 0x${h.entryPoint.toString(16)} lies outside every section`);
  else if (epOffset !== null && epOffset > r.length) notes.add('AddressOfEntryPoint lies past the end of the file');

  const dir = (index: number): RawDirectory | undefined => {
    const d = h.directories[index];
    return d !== undefined && d.virtualAddress !== 0 ? d : undefined;
  };
  /** Runs one directory's reader; a read that escapes it anyway costs that directory only. */
  const guarded = <T>(what: string, fallback: T, read: () => T): T => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof PeRangeError)) throw e;
      notes.add(`${what} cannot be read`);
      return fallback;
    }
  };

  const ctx: ImportContext = {
    image,
    plus,
    imageBase: h.imageBase,
    sizeOfImage: h.sizeOfImage,
    machine: h.fileHeader.machine,
    notes,
    symbolsRead: 0,
  };
  // The order is pefile's, since its import symbol budget is shared across the two import tables.
  const exportDir = dir(DIR.EXPORT);
  const exports = exportDir === undefined ? null : guarded('export directory', null, () => readExports(image, exportDir.virtualAddress, exportDir.size, notes));
  const importDir = dir(DIR.IMPORT);
  const imports: PeImportedDll[] = importDir === undefined ? [] : guarded('import directory', [], () => readImportDirectory(ctx, importDir.virtualAddress, false));
  const resourceDir = dir(DIR.RESOURCE);
  const emptyResources: PeResources = { types: [], entries: [], version_info: null, manifest: null };
  const resources = resourceDir === undefined ? emptyResources : guarded('resource directory', emptyResources, () => readResources(image, resourceDir.virtualAddress, notes));
  const debugDir = dir(DIR.DEBUG);
  const debug = debugDir === undefined ? [] : guarded('debug directory', [], () => readDebug(image, debugDir.virtualAddress, debugDir.size, notes));
  const tlsDir = dir(DIR.TLS);
  const tls = tlsDir === undefined ? null : guarded('TLS directory', null, () => readTls(image, tlsDir.virtualAddress, plus, h.imageBase, notes));
  const boundDir = dir(DIR.BOUND_IMPORT);
  const boundImports = boundDir === undefined ? [] : guarded('bound import directory', [], () => readBoundImports(image, boundDir.virtualAddress, notes));
  const delayDir = dir(DIR.DELAY_IMPORT);
  const delayImports: PeImportedDll[] = delayDir === undefined ? [] : guarded('delay-load import directory', [], () => readImportDirectory(ctx, delayDir.virtualAddress, true));

  if (image.entropyBudgetSpent) notes.add('sections or resources overlap so much that some entropies were not computed');
  const richHeader = guarded('Rich header', null, () => readRich(r, h.dos.e_lfanew, notes));
  const certificate = guarded('certificate table', null, () => readCertificates(r, h.directories[DIR.SECURITY], notes));
  const overlay = findOverlay(image, h.optionalOffset, h.fileHeader.size_of_optional_header, h.directories);
  // Strings and the byte counts behind the file's entropy come from one pass over the bytes.
  const counts = new Uint32Array(256);
  const strings = extractStrings(data, {}, counts);
  const importHash = imphash(imports);

  const importedModules = new Set(imports.map((d) => asciiLower(d.dll)));
  const sectionNames = new Set(h.sections.map((s) => asciiLower(s.name)));
  const isDriver =
    imports.length > 0 &&
    ([...importedModules].some((m) => KERNEL_MODULES.has(m)) ||
      ((sectionNames.has('page') || sectionNames.has('paged')) && (h.optional.subsystem === 1 || h.optional.subsystem === 8)));

  return {
    sha256: sha256Hex(data),
    size: data.length,
    format: h.format,
    is_dll: (h.fileHeader.characteristics & 0x2000) !== 0,
    is_driver: isDriver,
    dos_header: h.dos,
    file_header: h.fileHeader,
    optional_header: h.optional,
    data_directories: describeDirectories(image, h.directories, (s) => image.sectionName(s)),
    sections: h.sections,
    entry_point: { rva: h.entryPoint, section: epSection === undefined ? null : image.sectionName(epSection), offset: epOffset },
    imports,
    delay_imports: delayImports,
    bound_imports: boundImports,
    exports,
    resources,
    tls,
    debug,
    rich_header: richHeader,
    certificate,
    clr: (h.directories[DIR.COM_DESCRIPTOR]?.virtualAddress ?? 0) !== 0,
    overlay,
    strings: { ascii: strings.ascii, utf16le: strings.utf16le, truncated: strings.truncated },
    entropy: histogramEntropy(counts, data.length),
    imphash: importHash,
    imphash_with_delay: delayImports.length === 0 ? importHash : imphash([...imports, ...delayImports]),
    notes: notes.done(),
  };
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
