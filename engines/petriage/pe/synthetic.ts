// Deterministic variety for tests and benchmarks: a seeded PRNG and random (inert) PE build specs for the writer.
import { buildPe, type PeBuildSpec, type PeExportSymbolSpec, type PeImportSpec, type PeResourceSpec, type PeSectionSpec } from './writer.js';
import { mulberry32 } from '../../core/random.js';

type Rand = () => number;

function int(rand: Rand, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

function pick<T>(rand: Rand, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function sample<T>(rand: Rand, list: readonly T[], n: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as T);
  return out;
}

/** Import vocabulary: DLL spellings (case and extension vary, as in real files) with names, and ordinals where DLLs are often imported by number. */
const VOCABULARY: readonly { names: readonly string[]; apis: readonly (string | number)[] }[] = [
  { names: ['KERNEL32.dll', 'kernel32.dll', 'Kernel32.DLL'], apis: ['CreateFileW', 'ReadFile', 'WriteFile', 'CloseHandle', 'VirtualAlloc', 'VirtualProtect', 'GetProcAddress', 'LoadLibraryA', 'LoadLibraryW', 'CreateThread', 'Sleep', 'GetTickCount', 'ExitProcess', 'GetModuleHandleW', 'CreateProcessW', 'WriteProcessMemory', 'CreateRemoteThread', 'IsDebuggerPresent', 'GetSystemTimeAsFileTime'] },
  { names: ['ADVAPI32.dll', 'advapi32.dll'], apis: ['RegOpenKeyExW', 'RegSetValueExW', 'RegCloseKey', 'OpenProcessToken', 'CryptAcquireContextW', 'CryptEncrypt', 'CreateServiceW', 'StartServiceW'] },
  { names: ['USER32.dll', 'user32.dll'], apis: ['MessageBoxW', 'GetAsyncKeyState', 'SetWindowsHookExW', 'FindWindowW', 'GetForegroundWindow', 'ShowWindow'] },
  { names: ['WS2_32.dll', 'ws2_32.dll', 'WSOCK32.dll'], apis: [1, 3, 4, 9, 11, 16, 19, 23, 52, 57, 111, 115, 116, 500, 'WSAStartup', 'getaddrinfo', 'WSASocketW'] },
  { names: ['OLEAUT32.dll', 'oleaut32.dll'], apis: [2, 6, 7, 8, 9, 10, 147, 149, 150, 411, 9999, 'SysAllocString'] },
  { names: ['WININET.dll', 'wininet.dll'], apis: ['InternetOpenW', 'InternetOpenUrlW', 'InternetReadFile', 'HttpSendRequestW', 'InternetConnectW'] },
  { names: ['ntdll.dll', 'NTDLL.DLL'], apis: ['NtQueryInformationProcess', 'RtlInitUnicodeString', 'NtClose', 'ZwUnmapViewOfSection', 'RtlDecompressBuffer'] },
  { names: ['msvcrt.dll', 'MSVCRT.dll'], apis: ['printf', 'malloc', 'free', 'memcpy', '_initterm', '__getmainargs', '??2@YAPAXI@Z'] },
  { names: ['SHELL32.dll', 'shell32.dll'], apis: ['ShellExecuteW', 'SHGetFolderPathW', 680] },
  { names: ['comctl32.ocx', 'driverhelper.sys', 'helper.exe', 'MYLIB.DLL', 'plugin.v2.dll'], apis: ['Init', 'Run', 'Cleanup', 1, 2, 'Export@8'] },
];

const SECTION_NAMES = ['.pack', 'UPX1', '.vmp0', '.data2', '.crt', 'CODE', '.tls', '.bss2'];

function importList(rand: Rand, dlls: number): PeImportSpec[] {
  return sample(rand, VOCABULARY, dlls).map((v) => ({ dll: pick(rand, v.names), symbols: sample(rand, v.apis, int(rand, 1, Math.min(8, v.apis.length))) }));
}

/** Bytes with a chosen character: zeros, text-like, or uniformly random (packed-looking). */
function sectionBytes(rand: Rand, size: number): Uint8Array {
  const kind = int(rand, 0, 2);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = kind === 0 ? 0 : kind === 1 ? 0x20 + int(rand, 0, 94) : int(rand, 0, 255);
  return out;
}

/** A random, valid, inert PE spec. */
export function randomSpec(rand: Rand): PeBuildSpec {
  const dll = rand() < 0.35;
  const spec: {
    -readonly [K in keyof PeBuildSpec]: PeBuildSpec[K];
  } = {
    format: rand() < 0.5 ? 'PE32' : 'PE32+',
    dll,
    timestamp: int(rand, 0, 0x7fffffff),
    imports: rand() < 0.95 ? importList(rand, int(rand, 1, 6)) : [],
  };
  if (rand() < 0.2) spec.delayImports = importList(rand, int(rand, 1, 2));
  if (dll || rand() < 0.1) {
    const symbols: PeExportSymbolSpec[] = [];
    const n = int(rand, 1, 12);
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.15) symbols.push({ ordinal: 50 + i });
      else if (r < 0.3) symbols.push({ name: `Fwd${i}`, forwarder: `kernel32.Sleep${i}` });
      else symbols.push({ name: `Func${String.fromCharCode(65 + (i % 26))}${i}` });
    }
    spec.exports = { name: `lib${int(rand, 0, 999)}.dll`, base: int(rand, 1, 3), symbols };
  }
  if (rand() < 0.3) spec.versionInfo = { strings: { CompanyName: `Vendor ${int(rand, 0, 99)}`, FileDescription: 'Synthetic test binary', FileVersion: `${int(rand, 0, 9)}.${int(rand, 0, 9)}`, ProductName: 'Vitrine corpus' } };
  if (rand() < 0.2) spec.manifest = '<?xml version="1.0" encoding="UTF-8"?><assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0"></assembly>';
  if (rand() < 0.2) {
    const resources: PeResourceSpec[] = [];
    for (let i = int(rand, 1, 3); i > 0; i--) resources.push({ type: rand() < 0.7 ? 10 : 'CUSTOM', name: rand() < 0.5 ? i : `RES${i}`, language: pick(rand, [0, 0x409, 0x407]), data: sectionBytes(rand, int(rand, 1, 800)) });
    spec.resources = resources;
  }
  if (rand() < 0.15) spec.tlsCallbacks = int(rand, 1, 3);
  if (rand() < 0.3) spec.pdb = { path: `C:\\src\\proj${int(rand, 0, 99)}\\Release\\app.pdb`, age: int(rand, 1, 5) };
  if (rand() < 0.4) spec.rich = Array.from({ length: int(rand, 1, 6) }, () => ({ productId: int(rand, 1, 300), build: int(rand, 0, 40000), count: int(rand, 1, 200) }));
  if (rand() < 0.6) spec.strings = Array.from({ length: int(rand, 1, 6) }, (_, i) => pick(rand, ['http://example.invalid/a', 'cmd.exe /c', 'Global\\Mutex', 'SELECT * FROM', 'password']) + i);
  if (rand() < 0.3) spec.wideStrings = ['SOFTWARE\\Vitrine\\Test', `Wide string ${int(rand, 0, 999)}`];
  if (rand() < 0.3) {
    const sections: PeSectionSpec[] = [];
    for (let i = int(rand, 1, 2); i > 0; i--) sections.push({ name: pick(rand, SECTION_NAMES), data: sectionBytes(rand, int(rand, 16, 6000)), characteristics: pick(rand, [0x40000040, 0x60000020, 0xe0000060]) });
    spec.sections = sections;
  }
  if (rand() < 0.15) spec.overlay = sectionBytes(rand, int(rand, 1, 2000));
  if (rand() < 0.1) spec.certificate = sectionBytes(rand, int(rand, 16, 600));
  return spec;
}

/** `count` synthetic PE files from a seed. */
export function syntheticPes(count: number, seed: number): Uint8Array[] {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, () => buildPe(randomSpec(rand)));
}
