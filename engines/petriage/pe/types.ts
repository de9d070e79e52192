// The typed, JSON-serialisable result of `dissect`: what a PE file declares, read from its bytes only.
import type { TriageSection as PeSection } from '../../core/contracts/petriage.js';

/** A section table entry: the contract's type, under the dissector's name. */
export type { TriageSection as PeSection } from '../../core/contracts/petriage.js';

/** 64-bit header fields (image base, stack and heap sizes) are lower-case hex strings such as `0x180000000`, so they stay exact in JSON. */
export type Hex64 = string;

export interface PeDosHeader {
  readonly e_magic: number;
  readonly e_cblp: number;
  readonly e_cp: number;
  readonly e_lfarlc: number;
  /** File offset of the NT headers. */
  readonly e_lfanew: number;
}

export interface PeFileHeader {
  readonly machine: number;
  /** `IMAGE_FILE_MACHINE_I386`, ...; `UNKNOWN` for values Windows does not define. */
  readonly machine_name: string;
  readonly number_of_sections: number;
  readonly timestamp: number;
  readonly pointer_to_symbol_table: number;
  readonly number_of_symbols: number;
  readonly size_of_optional_header: number;
  readonly characteristics: number;
  /** Names of the set `IMAGE_FILE_*` flags. */
  readonly flags: readonly string[];
}

export interface PeOptionalHeader {
  readonly magic: number;
  readonly linker_version: string;
  readonly size_of_code: number;
  readonly size_of_initialized_data: number;
  readonly size_of_uninitialized_data: number;
  readonly address_of_entry_point: number;
  readonly base_of_code: number;
  /** PE32 only. */
  readonly base_of_data: number | null;
  readonly image_base: Hex64;
  readonly section_alignment: number;
  readonly file_alignment: number;
  readonly os_version: string;
  readonly image_version: string;
  readonly subsystem_version: string;
  readonly win32_version_value: number;
  readonly size_of_image: number;
  readonly size_of_headers: number;
  readonly checksum: number;
  /** The PE checksum recomputed over the file, as the loader's CheckSumMappedFile does. */
  readonly checksum_computed: number;
  readonly subsystem: number;
  readonly subsystem_name: string;
  readonly dll_characteristics: number;
  readonly dll_characteristics_flags: readonly string[];
  readonly size_of_stack_reserve: Hex64;
  readonly size_of_stack_commit: Hex64;
  readonly size_of_heap_reserve: Hex64;
  readonly size_of_heap_commit: Hex64;
  readonly loader_flags: number;
  readonly number_of_rva_and_sizes: number;
  /** True when the header was shorter than its structure and was read as if zero-padded (tiny PEs). */
  readonly truncated: boolean;
}

export interface PeDataDirectory {
  readonly index: number;
  /** `EXPORT`, `IMPORT`, `RESOURCE`, ... (the IMAGE_DIRECTORY_ENTRY_ suffix). */
  readonly name: string;
  /** An RVA, except for SECURITY where it is a file offset. */
  readonly virtual_address: number;
  readonly size: number;
  /** Name of the section holding it, when one does. */
  readonly section: string | null;
}

export interface PeImportedSymbol {
  /** Name as written in the hint/name table; null for an import by ordinal. */
  readonly name: string | null;
  /** Ordinal for an import by ordinal; null otherwise. */
  readonly ordinal: number | null;
  /** For an ordinal import from ws2_32/wsock32/oleaut32, the name the import hash gives it (`ordN` when unknown there). */
  readonly ordinal_name: string | null;
  readonly hint: number | null;
  readonly by_ordinal: boolean;
  /** RVA of the thunk in the import address table that the loader fills. */
  readonly iat_rva: number;
  /** File offset of the lookup-table entry this symbol was read from. */
  readonly thunk_offset: number;
}

export interface PeImportedDll {
  readonly dll: string;
  /** File offset of the import descriptor. */
  readonly descriptor_offset: number;
  readonly symbols: readonly PeImportedSymbol[];
}

export interface PeBoundImport {
  readonly dll: string;
  readonly timestamp: number;
  readonly forwarders: readonly { readonly dll: string; readonly timestamp: number }[];
}

export interface PeExportedSymbol {
  readonly ordinal: number;
  readonly name: string | null;
  /** RVA of the code or data, or of the forwarder string; null when the address table entry cannot be read. */
  readonly rva: number | null;
  /** `OTHERDLL.Function` when the export is forwarded. */
  readonly forwarder: string | null;
}

export interface PeExports {
  readonly dll_name: string;
  readonly timestamp: number;
  readonly ordinal_base: number;
  readonly number_of_functions: number;
  readonly number_of_names: number;
  readonly symbols: readonly PeExportedSymbol[];
}

export interface PeResourceTypeSummary {
  /** `RT_VERSION`, ... for known numeric types, the name for named types, else the number. */
  readonly type: string | number;
  readonly type_id: number | null;
  /** Resources (name-level entries) under this type. */
  readonly count: number;
}

export interface PeResource {
  readonly type: string | number;
  readonly type_id: number | null;
  /** The resource's name, or its numeric id. */
  readonly name: string | number;
  readonly language: number;
  readonly sublanguage: number;
  readonly rva: number;
  /** File offset of the data, or null when the RVA does not map into the file. */
  readonly offset: number | null;
  readonly size: number;
  readonly code_page: number;
  /** Entropy of the resource data present in the file; null when it is not in the file or past the reading budget. */
  readonly entropy: number | null;
}

export interface PeVersionInfo {
  /** StringFileInfo key/value pairs of every string table, later tables overriding earlier ones. */
  readonly strings: Readonly<Record<string, string>>;
  /** VS_FIXEDFILEINFO versions as `a.b.c.d`, when present. */
  readonly file_version: string | null;
  readonly product_version: string | null;
}

export interface PeResources {
  readonly types: readonly PeResourceTypeSummary[];
  /** Every leaf (data entry) reached in the type/name/language tree, capped. */
  readonly entries: readonly PeResource[];
  readonly version_info: PeVersionInfo | null;
  /** Text of the first RT_MANIFEST resource (UTF-8, capped at 64 KiB). */
  readonly manifest: string | null;
}

export interface PeTls {
  readonly start_address_of_raw_data: Hex64;
  readonly end_address_of_raw_data: Hex64;
  readonly address_of_index: Hex64;
  readonly address_of_callbacks: Hex64;
  /** RVAs of the TLS callbacks (they run before the entry point). */
  readonly callbacks: readonly number[];
}

export interface PeCodeView {
  readonly signature: 'RSDS' | 'NB10';
  /** GUID as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (RSDS) or the 32-bit signature in hex (NB10). */
  readonly guid: string;
  readonly age: number;
  /** Symbol-server key: GUID without dashes, upper case, followed by the age in hex. */
  readonly symbol_key: string;
  readonly pdb_path: string;
}

export interface PeDebugEntry {
  readonly type: number;
  /** `CODEVIEW`, `MISC`, `POGO`, `REPRO`, ... */
  readonly type_name: string;
  readonly timestamp: number;
  readonly size: number;
  readonly rva: number;
  readonly offset: number;
  readonly codeview: PeCodeView | null;
}

export interface PeRichEntry {
  readonly product_id: number;
  readonly build: number;
  readonly count: number;
}

export interface PeRichHeader {
  /** File offset of the `DanS` marker. */
  readonly offset: number;
  /** The XOR key stored after `Rich`, which is the checksum the linker computed. */
  readonly checksum: number;
  /** The checksum recomputed from the DOS header and the entries. */
  readonly checksum_computed: number;
  readonly checksum_valid: boolean;
  readonly entries: readonly PeRichEntry[];
}

export interface PeCertificateTable {
  /** File offset (the SECURITY directory holds a file offset, not an RVA). */
  readonly offset: number;
  readonly size: number;
  /** False when the table runs past the end of the file. */
  readonly within_file: boolean;
  /** WIN_CERTIFICATE headers; their contents are not verified here. */
  readonly entries: readonly { readonly offset: number; readonly length: number; readonly revision: number; readonly type: number }[];
}

export interface PeString {
  readonly offset: number;
  readonly value: string;
}

export interface PeStrings {
  /** Runs of at least 4 printable ASCII bytes. */
  readonly ascii: readonly PeString[];
  /** Runs of at least 4 printable ASCII characters encoded as UTF-16LE. */
  readonly utf16le: readonly PeString[];
  /** True when the caps on count or length cut the extraction short. */
  readonly truncated: boolean;
}

export interface PeDissection {
  readonly sha256: string;
  readonly size: number;
  readonly format: 'PE32' | 'PE32+';
  readonly is_dll: boolean;
  readonly is_driver: boolean;
  readonly dos_header: PeDosHeader;
  readonly file_header: PeFileHeader;
  readonly optional_header: PeOptionalHeader;
  readonly data_directories: readonly PeDataDirectory[];
  readonly sections: readonly PeSection[];
  readonly entry_point: { readonly rva: number; readonly section: string | null; readonly offset: number | null };
  readonly imports: readonly PeImportedDll[];
  readonly delay_imports: readonly PeImportedDll[];
  readonly bound_imports: readonly PeBoundImport[];
  readonly exports: PeExports | null;
  readonly resources: PeResources;
  readonly tls: PeTls | null;
  readonly debug: readonly PeDebugEntry[];
  readonly rich_header: PeRichHeader | null;
  readonly certificate: PeCertificateTable | null;
  /** The COM descriptor (CLR header) directory is present: a .NET assembly. */
  readonly clr: boolean;
  /** Bytes after everything the headers describe, as pefile's get_overlay_data_start_offset finds them. */
  readonly overlay: { readonly offset: number; readonly size: number } | null;
  readonly strings: PeStrings;
  /** Shannon entropy of the whole file, bits per byte. */
  readonly entropy: number;
  /** The import hash exactly as pefile's get_imphash() computes it ('' when there are no imports). */
  readonly imphash: string;
  /** The same hash over the imports followed by the delay-load imports. */
  readonly imphash_with_delay: string;
  /** What was damaged or suspicious in the structure; the parse went on past each one. */
  readonly notes: readonly string[];
}

/** A result object while the dissector is still filling it in (entropies are written after the byte scan). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
