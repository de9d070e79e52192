// Names of PE header values (winnt.h), so results read as the documentation does.

export const MACHINE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x0, 'IMAGE_FILE_MACHINE_UNKNOWN'], [0x14c, 'IMAGE_FILE_MACHINE_I386'], [0x160, 'IMAGE_FILE_MACHINE_R3000BE'],
  [0x162, 'IMAGE_FILE_MACHINE_R3000'], [0x166, 'IMAGE_FILE_MACHINE_R4000'], [0x168, 'IMAGE_FILE_MACHINE_R10000'],
  [0x169, 'IMAGE_FILE_MACHINE_WCEMIPSV2'], [0x184, 'IMAGE_FILE_MACHINE_ALPHA'], [0x1a2, 'IMAGE_FILE_MACHINE_SH3'],
  [0x1a3, 'IMAGE_FILE_MACHINE_SH3DSP'], [0x1a4, 'IMAGE_FILE_MACHINE_SH3E'], [0x1a6, 'IMAGE_FILE_MACHINE_SH4'],
  [0x1a8, 'IMAGE_FILE_MACHINE_SH5'], [0x1c0, 'IMAGE_FILE_MACHINE_ARM'], [0x1c2, 'IMAGE_FILE_MACHINE_THUMB'],
  [0x1c4, 'IMAGE_FILE_MACHINE_ARMNT'], [0x1d3, 'IMAGE_FILE_MACHINE_AM33'], [0x1f0, 'IMAGE_FILE_MACHINE_POWERPC'],
  [0x1f1, 'IMAGE_FILE_MACHINE_POWERPCFP'], [0x200, 'IMAGE_FILE_MACHINE_IA64'], [0x266, 'IMAGE_FILE_MACHINE_MIPS16'],
  [0x284, 'IMAGE_FILE_MACHINE_ALPHA64'], [0x366, 'IMAGE_FILE_MACHINE_MIPSFPU'], [0x466, 'IMAGE_FILE_MACHINE_MIPSFPU16'],
  [0x520, 'IMAGE_FILE_MACHINE_TRICORE'], [0xcef, 'IMAGE_FILE_MACHINE_CEF'], [0xebc, 'IMAGE_FILE_MACHINE_EBC'],
  [0x5032, 'IMAGE_FILE_MACHINE_RISCV32'], [0x5064, 'IMAGE_FILE_MACHINE_RISCV64'], [0x5128, 'IMAGE_FILE_MACHINE_RISCV128'],
  [0x6232, 'IMAGE_FILE_MACHINE_LOONGARCH32'], [0x6264, 'IMAGE_FILE_MACHINE_LOONGARCH64'], [0x8664, 'IMAGE_FILE_MACHINE_AMD64'],
  [0x9041, 'IMAGE_FILE_MACHINE_M32R'], [0xaa64, 'IMAGE_FILE_MACHINE_ARM64'], [0xc0ee, 'IMAGE_FILE_MACHINE_CEE'],
]);

export const SUBSYSTEM_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'IMAGE_SUBSYSTEM_UNKNOWN'], [1, 'IMAGE_SUBSYSTEM_NATIVE'], [2, 'IMAGE_SUBSYSTEM_WINDOWS_GUI'],
  [3, 'IMAGE_SUBSYSTEM_WINDOWS_CUI'], [5, 'IMAGE_SUBSYSTEM_OS2_CUI'], [7, 'IMAGE_SUBSYSTEM_POSIX_CUI'],
  [8, 'IMAGE_SUBSYSTEM_NATIVE_WINDOWS'], [9, 'IMAGE_SUBSYSTEM_WINDOWS_CE_GUI'], [10, 'IMAGE_SUBSYSTEM_EFI_APPLICATION'],
  [11, 'IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER'], [12, 'IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER'], [13, 'IMAGE_SUBSYSTEM_EFI_ROM'],
  [14, 'IMAGE_SUBSYSTEM_XBOX'], [16, 'IMAGE_SUBSYSTEM_WINDOWS_BOOT_APPLICATION'], [17, 'IMAGE_SUBSYSTEM_XBOX_CODE_CATALOG'],
]);

export const FILE_CHARACTERISTICS: readonly (readonly [number, string])[] = [
  [0x0001, 'RELOCS_STRIPPED'], [0x0002, 'EXECUTABLE_IMAGE'], [0x0004, 'LINE_NUMS_STRIPPED'], [0x0008, 'LOCAL_SYMS_STRIPPED'],
  [0x0010, 'AGGRESIVE_WS_TRIM'], [0x0020, 'LARGE_ADDRESS_AWARE'], [0x0040, '16BIT_MACHINE'], [0x0080, 'BYTES_REVERSED_LO'],
  [0x0100, '32BIT_MACHINE'], [0x0200, 'DEBUG_STRIPPED'], [0x0400, 'REMOVABLE_RUN_FROM_SWAP'], [0x0800, 'NET_RUN_FROM_SWAP'],
  [0x1000, 'SYSTEM'], [0x2000, 'DLL'], [0x4000, 'UP_SYSTEM_ONLY'], [0x8000, 'BYTES_REVERSED_HI'],
];

export const DLL_CHARACTERISTICS: readonly (readonly [number, string])[] = [
  [0x0020, 'HIGH_ENTROPY_VA'], [0x0040, 'DYNAMIC_BASE'], [0x0080, 'FORCE_INTEGRITY'], [0x0100, 'NX_COMPAT'],
  [0x0200, 'NO_ISOLATION'], [0x0400, 'NO_SEH'], [0x0800, 'NO_BIND'], [0x1000, 'APPCONTAINER'], [0x2000, 'WDM_DRIVER'],
  [0x4000, 'GUARD_CF'], [0x8000, 'TERMINAL_SERVER_AWARE'],
];

/** Single-bit section flags; the alignment nibble is reported separately as ALIGN_<n>BYTES. */
export const SECTION_CHARACTERISTICS: readonly (readonly [number, string])[] = [
  [0x00000008, 'TYPE_NO_PAD'], [0x00000020, 'CNT_CODE'], [0x00000040, 'CNT_INITIALIZED_DATA'],
  [0x00000080, 'CNT_UNINITIALIZED_DATA'], [0x00000100, 'LNK_OTHER'], [0x00000200, 'LNK_INFO'], [0x00000800, 'LNK_REMOVE'],
  [0x00001000, 'LNK_COMDAT'], [0x00004000, 'NO_DEFER_SPEC_EXC'], [0x00008000, 'GPREL'], [0x00020000, 'MEM_PURGEABLE'],
  [0x00040000, 'MEM_LOCKED'], [0x00080000, 'MEM_PRELOAD'], [0x01000000, 'LNK_NRELOC_OVFL'], [0x02000000, 'MEM_DISCARDABLE'],
  [0x04000000, 'MEM_NOT_CACHED'], [0x08000000, 'MEM_NOT_PAGED'], [0x10000000, 'MEM_SHARED'], [0x20000000, 'MEM_EXECUTE'],
  [0x40000000, 'MEM_READ'], [0x80000000, 'MEM_WRITE'],
];

export const DIRECTORY_NAMES: readonly string[] = [
  'EXPORT', 'IMPORT', 'RESOURCE', 'EXCEPTION', 'SECURITY', 'BASERELOC', 'DEBUG', 'ARCHITECTURE',
  'GLOBALPTR', 'TLS', 'LOAD_CONFIG', 'BOUND_IMPORT', 'IAT', 'DELAY_IMPORT', 'COM_DESCRIPTOR', 'RESERVED',
];

export const DIR = {
  EXPORT: 0, IMPORT: 1, RESOURCE: 2, EXCEPTION: 3, SECURITY: 4, BASERELOC: 5, DEBUG: 6, TLS: 9,
  LOAD_CONFIG: 10, BOUND_IMPORT: 11, IAT: 12, DELAY_IMPORT: 13, COM_DESCRIPTOR: 14,
} as const;

export const DEBUG_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'UNKNOWN'], [1, 'COFF'], [2, 'CODEVIEW'], [3, 'FPO'], [4, 'MISC'], [5, 'EXCEPTION'], [6, 'FIXUP'],
  [7, 'OMAP_TO_SRC'], [8, 'OMAP_FROM_SRC'], [9, 'BORLAND'], [10, 'RESERVED10'], [11, 'CLSID'], [12, 'VC_FEATURE'],
  [13, 'POGO'], [14, 'ILTCG'], [15, 'MPX'], [16, 'REPRO'], [17, 'EMBEDDED_PORTABLE_PDB'], [19, 'PDBCHECKSUM'],
  [20, 'EX_DLLCHARACTERISTICS'],
]);

export const RESOURCE_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'RT_CURSOR'], [2, 'RT_BITMAP'], [3, 'RT_ICON'], [4, 'RT_MENU'], [5, 'RT_DIALOG'], [6, 'RT_STRING'],
  [7, 'RT_FONTDIR'], [8, 'RT_FONT'], [9, 'RT_ACCELERATOR'], [10, 'RT_RCDATA'], [11, 'RT_MESSAGETABLE'],
  [12, 'RT_GROUP_CURSOR'], [14, 'RT_GROUP_ICON'], [16, 'RT_VERSION'], [17, 'RT_DLGINCLUDE'], [19, 'RT_PLUGPLAY'],
  [20, 'RT_VXD'], [21, 'RT_ANICURSOR'], [22, 'RT_ANIICON'], [23, 'RT_HTML'], [24, 'RT_MANIFEST'],
]);

export const RT_VERSION = 16;
export const RT_MANIFEST = 24;

export function flagNames(value: number, table: readonly (readonly [number, string])[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < table.length; i++) {
    const entry = table[i] as readonly [number, string];
    if ((value & entry[0]) >>> 0 === entry[0]) out.push(entry[1]);
  }
  return out;
}

/** Names already made, by value: a file has a few distinct flag values, met again in every file like it. */
class FlagNameCache {
  private readonly names = new Map<number, readonly string[]>();
  constructor(private readonly make: (value: number) => string[]) {}

  /** The names of `value` as a new array (the caller owns it). */
  get(value: number): string[] {
    let names = this.names.get(value);
    if (names === undefined) {
      names = this.make(value);
      // Hostile files can hold any values: beyond this many the cache stops growing.
      if (this.names.size < 4096) this.names.set(value, names);
    }
    return names.slice();
  }
}

const FILE_FLAG_NAMES = new FlagNameCache(fileFlags);
const DLL_FLAG_NAMES = new FlagNameCache(dllFlags);
const SECTION_FLAG_NAMES = new FlagNameCache(sectionFlags);

function fileFlags(value: number): string[] {
  return flagNames(value, FILE_CHARACTERISTICS);
}

function dllFlags(value: number): string[] {
  return flagNames(value, DLL_CHARACTERISTICS);
}

/** The file header's Characteristics flags. */
export function fileFlagNames(characteristics: number): string[] {
  return FILE_FLAG_NAMES.get(characteristics);
}

/** The optional header's DllCharacteristics flags. */
export function dllFlagNames(dllCharacteristics: number): string[] {
  return DLL_FLAG_NAMES.get(dllCharacteristics);
}

/** Section flags plus the ALIGN_<n>BYTES value of the alignment nibble. */
export function sectionFlagNames(characteristics: number): string[] {
  return SECTION_FLAG_NAMES.get(characteristics);
}

function sectionFlags(characteristics: number): string[] {
  const out = flagNames(characteristics, SECTION_CHARACTERISTICS);
  const align = (characteristics >>> 20) & 0xf;
  if (align >= 1 && align <= 14) out.push(`ALIGN_${2 ** (align - 1)}BYTES`);
  return out;
}
