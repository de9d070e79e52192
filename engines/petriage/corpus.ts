// The synthetic training corpus of the linear demo model: valid, inert PE files in made-up families plus benign look-alikes, built by the PE writer;
// and `featurizeCorpus`, the one featurising pass over a labelled corpus that both models train from.
//
// Nothing here is, contains or imitates malware code: every routine in these files only returns. Behaviour is
// suggested by import names and strings alone, which is all a static triage model sees. Family names are invented.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { mulberry32 } from '../core/random.js';
import { fileTokens } from './family.js';
import { featurize } from './features.js';
import { dissect } from './pe/index.js';
import { buildPe, type PeBuildSpec, type PeImportSpec, type PeResourceSpec, type PeSectionSpec } from './pe/writer.js';

type Rand = () => number;

export const BENIGN = 'benign';

export interface CorpusSample {
  /** File name, `<family>-<index>.exe` or `.dll`. */
  readonly name: string;
  /** A family name, or `benign`. */
  readonly family: string;
  /** 1 for a family sample, 0 for benign. */
  readonly label: 0 | 1;
  readonly bytes: Uint8Array;
}

export interface FamilyDescription {
  readonly name: string;
  readonly description: string;
}

export interface CorpusOptions {
  /** Samples per family (default 20). */
  readonly perFamily?: number;
  /** Benign samples (default 3 x perFamily). */
  readonly benign?: number;
  readonly seed?: number;
}

const int = (rand: Rand, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const chance = (rand: Rand, p: number): boolean => rand() < p;

function some<T>(rand: Rand, list: readonly T[], p: number, atLeast = 0): T[] {
  const chosen = list.filter(() => rand() < p);
  const rest = list.filter((x) => !chosen.includes(x));
  while (chosen.length < atLeast && rest.length > 0) chosen.push(rest.splice(Math.floor(rand() * rest.length), 1)[0] as T);
  return chosen;
}

function randomBytes(rand: Rand, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

function textBytes(rand: Rand, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 0x20 + Math.floor(rand() * 95);
  return out;
}

/** Groups imports by DLL, keeping first-seen order. */
function importsOf(entries: readonly (readonly [string, string | number])[]): PeImportSpec[] {
  const by = new Map<string, (string | number)[]>();
  for (const [dll, sym] of entries) {
    const list = by.get(dll) ?? [];
    if (!list.includes(sym)) list.push(sym);
    by.set(dll, list);
  }
  return [...by].map(([dll, symbols]) => ({ dll, symbols }));
}

const K32 = 'KERNEL32.dll';
const U32 = 'USER32.dll';
const A32 = 'ADVAPI32.dll';

/** Imports nearly every Windows program has: the C runtime's start-up and the usual kernel32 calls. */
const RUNTIME: readonly (readonly [string, string])[] = [
  [K32, 'GetModuleHandleW'],
  [K32, 'GetProcAddress'],
  [K32, 'LoadLibraryW'],
  [K32, 'GetLastError'],
  [K32, 'HeapAlloc'],
  [K32, 'HeapFree'],
  [K32, 'GetProcessHeap'],
  [K32, 'ExitProcess'],
  [K32, 'GetCommandLineW'],
  [K32, 'GetStartupInfoW'],
  [K32, 'QueryPerformanceCounter'],
  [K32, 'GetCurrentProcessId'],
  [K32, 'GetCurrentThreadId'],
  [K32, 'GetSystemTimeAsFileTime'],
  [K32, 'InitializeCriticalSectionAndSpinCount'],
  [K32, 'EnterCriticalSection'],
  [K32, 'LeaveCriticalSection'],
  [K32, 'IsDebuggerPresent'],
  [K32, 'SetUnhandledExceptionFilter'],
  [K32, 'UnhandledExceptionFilter'],
  [K32, 'TerminateProcess'],
  [K32, 'GetCurrentProcess'],
  [K32, 'CloseHandle'],
  [K32, 'CreateFileW'],
  [K32, 'ReadFile'],
  [K32, 'WriteFile'],
  [K32, 'Sleep'],
  [K32, 'MultiByteToWideChar'],
  [K32, 'WideCharToMultiByte'],
  ['msvcrt.dll', 'malloc'],
  ['msvcrt.dll', 'free'],
  ['msvcrt.dll', 'memcpy'],
  ['msvcrt.dll', 'memset'],
  ['msvcrt.dll', '_initterm'],
];

const RUNTIME_STRINGS = ['Runtime Error!', 'R6016 - not enough space for thread data', 'bad allocation', 'invalid argument', 'string too long', 'Unknown exception', 'ios_base::badbit set'];

/** Text any program may hold (messages, formats, paths), drawn by benign and family samples alike so text statistics alone do not separate them. */
const COMMON_STRINGS = [
  'Error %d: %s',
  'Out of memory',
  'config.ini',
  '%s\\%s',
  'Version %u.%u.%u',
  'Loading...',
  'Done.',
  'Invalid parameter',
  'File not found',
  'Press any key to continue',
  'yyyy-MM-dd HH:mm:ss',
  'application/octet-stream',
  'Hello, world!',
  '%08X',
  'temp',
  'Microsoft Visual C++ Runtime Library',
  'GetNativeSystemInfo',
  'kernel32.dll',
  'user32.dll',
  'The operation completed successfully.',
];

const VERSION_COMPANIES = ['Example Corp', 'Contoso Tools', 'Fabrikam Ltd'];

/** Toolchain-like variety shared by every sample: format, timestamps, Rich header, PDB path, version info, extra sections. */
function commonSpec(rand: Rand, name: string): { -readonly [K in keyof PeBuildSpec]: PeBuildSpec[K] } {
  const spec: { -readonly [K in keyof PeBuildSpec]: PeBuildSpec[K] } = {
    format: chance(rand, 0.5) ? 'PE32+' : 'PE32',
    timestamp: int(rand, 0x50000000, 0x66000000),
  };
  if (chance(rand, 0.7)) spec.rich = Array.from({ length: int(rand, 2, 7) }, () => ({ productId: pick(rand, [0x101, 0x102, 0x103, 0x104, 0x105, 0x93, 0xff]), build: pick(rand, [30133, 30148, 29913, 27412]), count: int(rand, 1, 120) }));
  if (chance(rand, 0.5)) spec.pdb = { path: `C:\\build\\${name}\\${pick(rand, ['Release', 'x64\\Release', 'bin'])}\\${name}.pdb`, age: int(rand, 1, 4) };
  return spec;
}

// ---------------------------------------------------------------------------------------------
// Families

interface Family extends FamilyDescription {
  /** Always imported. */
  readonly core: readonly (readonly [string, string | number])[];
  /** Each imported with probability 0.6. */
  readonly optional: readonly (readonly [string, string | number])[];
  /** Family-specific strings; each present with probability 0.7 (at least three). */
  readonly markers: readonly string[];
  /** Strings of the family's behaviour (commands, paths); each present with probability 0.5. */
  readonly behaviour: readonly string[];
  readonly wide?: boolean;
  /** Extra shaping per sample (packed sections, embedded files). */
  readonly extra?: (rand: Rand, spec: { -readonly [K in keyof PeBuildSpec]: PeBuildSpec[K] }) => void;
}

const packedSection = (rand: Rand, name: string): PeSectionSpec => ({ name, data: randomBytes(rand, int(rand, 4, 12) * 1024), characteristics: 0xe0000020 });

const FAMILY_LIST: readonly Family[] = [
  {
    name: 'hollowpoint',
    description: 'process injector: writes into another process and starts a thread there; process hollowing',
    core: [
      [K32, 'OpenProcess'],
      [K32, 'VirtualAllocEx'],
      [K32, 'WriteProcessMemory'],
      [K32, 'CreateRemoteThread'],
    ],
    optional: [
      ['ntdll.dll', 'NtUnmapViewOfSection'],
      [K32, 'SetThreadContext'],
      [K32, 'GetThreadContext'],
      [K32, 'ResumeThread'],
      [K32, 'CreateToolhelp32Snapshot'],
      [K32, 'Process32FirstW'],
      [K32, 'Process32NextW'],
      [K32, 'VirtualProtectEx'],
      [K32, 'CreateProcessW'],
    ],
    markers: ['hp_stage2_loader', 'Global\\HPX-4b1d9e', 'hollowpoint build 2.3', 'hpinject.dll', 'HP_CFG_BLOB', 'target=explorer.exe;retry=3'],
    behaviour: ['explorer.exe', 'svchost.exe -k netsvcs', 'notepad.exe'],
    extra: (rand, spec) => {
      if (chance(rand, 0.5)) spec.sections = [...(spec.sections ?? []), packedSection(rand, '.hpx')];
    },
  },
  {
    name: 'keywren',
    description: 'keystroke logger: keyboard hook and polling, window titles, clipboard',
    core: [
      [U32, 'SetWindowsHookExW'],
      [U32, 'CallNextHookEx'],
      [U32, 'GetAsyncKeyState'],
    ],
    optional: [
      [U32, 'GetForegroundWindow'],
      [U32, 'GetWindowTextW'],
      [U32, 'MapVirtualKeyW'],
      [U32, 'GetKeyNameTextW'],
      [U32, 'GetKeyboardState'],
      [U32, 'ToUnicode'],
      [U32, 'OpenClipboard'],
      [U32, 'GetClipboardData'],
      [U32, 'GetMessageW'],
    ],
    markers: ['[ENTER]', '[BACKSPACE]', '[SHIFT]', '[TAB]', '[CAPSLOCK]', 'kw_%04d%02d%02d.log', 'keywren/1.7', '--- window: %s ---'],
    behaviour: ['%APPDATA%\\Microsoft\\kwcache', 'upload.keywren.example.invalid'],
    wide: true,
  },
  {
    name: 'lockjaw',
    description: 'file encryptor: walks drives, encrypts and renames files, deletes shadow copies, leaves a note',
    core: [
      [A32, 'CryptAcquireContextW'],
      [A32, 'CryptEncrypt'],
      [K32, 'FindFirstFileW'],
      [K32, 'FindNextFileW'],
    ],
    optional: [
      [A32, 'CryptGenKey'],
      [A32, 'CryptImportKey'],
      [A32, 'CryptExportKey'],
      [K32, 'MoveFileExW'],
      [K32, 'GetLogicalDrives'],
      [K32, 'GetDriveTypeW'],
      [K32, 'SetFileAttributesW'],
    ],
    markers: ['README_TO_RESTORE.txt', '.lockjaw', 'LOCKJAW-KEY-v1', 'Your files have been encrypted (synthetic test sample).', 'lj_exclude=windows;program files', 'lockjaw_id=%08X'],
    behaviour: ['vssadmin.exe delete shadows /all /quiet', 'cmd.exe /c wbadmin delete catalog -quiet', 'bcdedit /set {default} recoveryenabled no'],
    extra: (rand, spec) => {
      if (chance(rand, 0.6)) spec.sections = [...(spec.sections ?? []), packedSection(rand, '.ljk')];
    },
  },
  {
    name: 'gatecrash',
    description: 'downloader and remote shell: HTTP check-ins to a gate, downloads and runs files, raw sockets',
    core: [
      ['WININET.dll', 'InternetOpenW'],
      ['WININET.dll', 'InternetConnectW'],
      ['WININET.dll', 'HttpOpenRequestW'],
      ['WININET.dll', 'HttpSendRequestW'],
    ],
    optional: [
      ['WININET.dll', 'InternetReadFile'],
      ['urlmon.dll', 'URLDownloadToFileW'],
      [K32, 'WinExec'],
      [K32, 'CreateProcessW'],
      ['WS2_32.dll', 23],
      ['WS2_32.dll', 4],
      ['WS2_32.dll', 19],
      ['WS2_32.dll', 16],
      ['WS2_32.dll', 115],
      [K32, 'CreatePipe'],
    ],
    markers: ['http://gate.example.invalid/panel/gate.php', 'Mozilla/4.0 (compatible; GC-agent)', 'id=%s&os=%s&v=gc41', '/panel/tasks.php', 'GATECRASH_TASK', 'gc_update.exe'],
    behaviour: ['cmd.exe /c ', 'powershell.exe -nop -w hidden -c ', '198.51.100.23'],
  },
  {
    name: 'siphon',
    description: 'credential stealer: browser password stores, DPAPI, Credential Manager',
    core: [
      ['CRYPT32.dll', 'CryptUnprotectData'],
      [A32, 'CredEnumerateW'],
    ],
    optional: [
      [A32, 'GetUserNameW'],
      [K32, 'GetComputerNameW'],
      [A32, 'RegOpenKeyExW'],
      [A32, 'RegQueryValueExW'],
      ['SHELL32.dll', 'SHGetFolderPathW'],
      [K32, 'GetVersionExW'],
      [K32, 'CopyFileW'],
    ],
    markers: ['siphon.dat', 'SIPHON-EXFIL-2', 'SELECT origin_url, username_value, password_value FROM logins', 'sph_%s_%s.zip', 'encrypted_key'],
    behaviour: ['\\Google\\Chrome\\User Data\\Default\\Login Data', '\\Mozilla\\Firefox\\Profiles', 'logins.json', '\\Microsoft\\Edge\\User Data\\Local State'],
    wide: true,
  },
  {
    name: 'burrow',
    description: 'persistence dropper: Run keys, a service and a scheduled task; checks for debuggers and virtual machines; carries an embedded file',
    core: [
      [A32, 'RegCreateKeyExW'],
      [A32, 'RegSetValueExW'],
      [A32, 'OpenSCManagerW'],
      [A32, 'CreateServiceW'],
    ],
    optional: [
      [A32, 'StartServiceW'],
      [K32, 'CopyFileW'],
      [K32, 'GetModuleFileNameW'],
      [K32, 'CheckRemoteDebuggerPresent'],
      ['ntdll.dll', 'NtQueryInformationProcess'],
      [A32, 'RegDeleteValueW'],
      [K32, 'SetFileTime'],
      [K32, 'GetFileTime'],
    ],
    markers: ['burrowsvc', 'Burrow Update Helper', 'brw_payload.bin', 'BURROW-DROP-7', 'Global\\brw-singleton'],
    behaviour: ['Software\\Microsoft\\Windows\\CurrentVersion\\Run', 'schtasks /create /tn "BurrowUpdate" /tr ', 'VBoxService.exe', 'vmtoolsd.exe', 'SbieDll.dll'],
    wide: true,
    extra: (rand, spec) => {
      if (chance(rand, 0.5)) spec.resources = [...(spec.resources ?? []), { type: 10, name: 101, data: buildPe({ imports: [{ dll: K32, symbols: ['ExitProcess'] }] }) }];
    },
  },
];

export const FAMILIES: readonly FamilyDescription[] = FAMILY_LIST.map((f) => ({ name: f.name, description: f.description }));

function familySample(rand: Rand, family: Family, index: number): CorpusSample {
  const spec = commonSpec(rand, `${family.name}${index}`);
  const imports = [...family.core, ...some(rand, family.optional, 0.6, 2), ...some(rand, RUNTIME, 0.5, 6)];
  spec.imports = importsOf(imports);
  const markers = some(rand, family.markers, 0.7, 3);
  const behaviour = some(rand, family.behaviour, 0.5, 1);
  const filler = [...some(rand, RUNTIME_STRINGS, 0.3), ...some(rand, COMMON_STRINGS, 0.25)];
  const text = [...markers, ...behaviour, ...filler];
  if (family.wide === true) {
    const wide = text.filter(() => chance(rand, 0.5));
    spec.wideStrings = wide;
    spec.strings = text.filter((s) => !wide.includes(s));
  } else {
    spec.strings = text;
  }
  if (chance(rand, 0.3)) spec.overlay = randomBytes(rand, int(rand, 256, 4096));
  // Some samples dress up as ordinary software: version information and a manifest like benign programs'.
  if (chance(rand, 0.35)) spec.versionInfo = { strings: { CompanyName: pick(rand, VERSION_COMPANIES), FileDescription: 'Helper', ProductName: 'Example Suite', FileVersion: `${int(rand, 1, 9)}.${int(rand, 0, 9)}` }, fileVersion: [int(rand, 1, 9), int(rand, 0, 9), 0, 0] };
  if (chance(rand, 0.25)) spec.manifest = MANIFEST;
  if (chance(rand, 0.15)) spec.sections = [...(spec.sections ?? []), { name: '.data2', data: textBytes(rand, int(rand, 256, 4096)) }];
  family.extra?.(rand, spec);
  return { name: `${family.name}-${String(index).padStart(3, '0')}.exe`, family: family.name, label: 1, bytes: buildPe(spec) };
}

// ---------------------------------------------------------------------------------------------
// Benign look-alikes: the same toolchain variety, ordinary programs' imports and strings, and some with
// behaviour that a crude model would call suspicious (updaters talk HTTP, installers write Run keys and services).

interface BenignKind {
  readonly name: string;
  readonly imports: readonly (readonly [string, string | number])[];
  readonly strings: readonly string[];
  readonly dll?: boolean;
  /** Few imports, no runtime filler, no version information, manifest or signature. */
  readonly lean?: boolean;
  readonly extra?: (rand: Rand, spec: { -readonly [K in keyof PeBuildSpec]: PeBuildSpec[K] }, index: number) => void;
}

const CERT_URLS = ['http://crl.example-ca.invalid/ExampleCodeSigningCA.crl', 'http://ocsp.digicert.com', 'http://cacerts.example-ca.invalid/ExampleCodeSigningCA.crt', 'http://www.digicert.com/CPS', 'http://timestamp.sectigo.com'];

const MANIFEST = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0">\r\n<trustInfo xmlns="urn:schemas-microsoft-com:asm.v3"><security><requestedPrivileges><requestedExecutionLevel level="asInvoker" uiAccess="false"/></requestedPrivileges></security></trustInfo>\r\n<application xmlns="urn:schemas-microsoft-com:asm.v3"><windowsSettings><dpiAware xmlns="http://schemas.microsoft.com/SMI/2005/WindowsSettings">true</dpiAware></windowsSettings></application>\r\n</assembly>\r\n';

const BENIGN_KINDS: readonly BenignKind[] = [
  {
    name: 'gui',
    imports: [
      [U32, 'CreateWindowExW'],
      [U32, 'RegisterClassExW'],
      [U32, 'GetMessageW'],
      [U32, 'DispatchMessageW'],
      [U32, 'TranslateMessage'],
      [U32, 'DefWindowProcW'],
      [U32, 'ShowWindow'],
      [U32, 'MessageBoxW'],
      [U32, 'LoadIconW'],
      [U32, 'GetKeyState'],
      ['GDI32.dll', 'BitBlt'],
      ['GDI32.dll', 'CreateCompatibleDC'],
      ['GDI32.dll', 'SelectObject'],
      ['COMCTL32.dll', 'InitCommonControlsEx'],
      [U32, 'OpenClipboard'],
      [U32, 'SetClipboardData'],
    ],
    strings: ['&File', '&Edit', '&Help', 'About %s', 'Untitled - Editor', 'Do you want to save changes?', 'Settings.ini', 'Recent Files'],
  },
  {
    name: 'console',
    imports: [
      [K32, 'GetStdHandle'],
      [K32, 'WriteConsoleW'],
      [K32, 'GetFileSizeEx'],
      [K32, 'SetFilePointerEx'],
      [K32, 'FindFirstFileW'],
      [K32, 'FindNextFileW'],
      [K32, 'FindClose'],
      [K32, 'GetFullPathNameW'],
      ['msvcrt.dll', 'printf'],
      ['msvcrt.dll', 'fopen'],
      ['msvcrt.dll', 'fread'],
      ['msvcrt.dll', 'fclose'],
      ['msvcrt.dll', '__getmainargs'],
    ],
    strings: ['Usage: %s [options] FILE...', '  -h, --help     show this help', '  -v, --verbose  more output', 'error: cannot open %s', '%lu files, %llu bytes', 'Copyright (C) Example Tools'],
  },
  {
    name: 'library',
    dll: true,
    imports: [
      [K32, 'DisableThreadLibraryCalls'],
      [K32, 'InitializeSListHead'],
      [K32, 'TlsAlloc'],
      [K32, 'TlsGetValue'],
      [K32, 'TlsSetValue'],
      [K32, 'FlsAlloc'],
      [K32, 'RaiseException'],
      [K32, 'RtlUnwind'],
    ],
    strings: ['zlib stream error', 'invalid block type', 'incorrect header check', 'deflate 1.2.13 Copyright 1995-2022 Jean-loup Gailly and Mark Adler', 'need dictionary'],
    extra: (rand, spec, index) => {
      const names = ['Compress', 'Decompress', 'Init', 'Shutdown', 'GetVersion', 'SetOption', 'Open', 'Close', 'Read', 'Write', 'Flush', 'Reset'];
      spec.exports = { name: `examplelib${index}.dll`, symbols: some(rand, names, 0.6, 3).map((n) => ({ name: `exl_${n}` })) };
    },
  },
  {
    name: 'updater',
    imports: [
      ['WINHTTP.dll', 'WinHttpOpen'],
      ['WINHTTP.dll', 'WinHttpConnect'],
      ['WINHTTP.dll', 'WinHttpOpenRequest'],
      ['WINHTTP.dll', 'WinHttpSendRequest'],
      ['WINHTTP.dll', 'WinHttpReceiveResponse'],
      ['WINHTTP.dll', 'WinHttpReadData'],
      ['CRYPT32.dll', 'CertGetCertificateChain'],
      ['WINTRUST.dll', 'WinVerifyTrust'],
      [K32, 'CreateProcessW'],
      [K32, 'GetTempPathW'],
      [K32, 'MoveFileExW'],
    ],
    strings: ['https://updates.example.com/app/stable/manifest.json', 'ExampleUpdater/3.2', 'Checking for updates...', 'Signature check failed', 'update.msi', 'Software\\Example\\Updater'],
  },
  {
    name: 'installer',
    imports: [
      [A32, 'RegCreateKeyExW'],
      [A32, 'RegSetValueExW'],
      [A32, 'RegCloseKey'],
      [A32, 'OpenSCManagerW'],
      [A32, 'CreateServiceW'],
      [A32, 'StartServiceW'],
      [A32, 'RegDeleteKeyW'],
      ['SHELL32.dll', 'SHGetFolderPathW'],
      ['SHELL32.dll', 'ShellExecuteW'],
      [K32, 'CopyFileW'],
      [K32, 'CreateDirectoryW'],
      [K32, 'GetModuleFileNameW'],
      [K32, 'FindFirstFileW'],
      [K32, 'FindNextFileW'],
    ],
    strings: ['Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\ExampleApp', 'Software\\Microsoft\\Windows\\CurrentVersion\\Run', 'ExampleApp Setup', 'Installing files...', 'ExampleAppService', 'The installation completed successfully.'],
    extra: (rand, spec) => {
      // Installers carry compressed payloads.
      if (chance(rand, 0.7)) spec.resources = [...(spec.resources ?? []), { type: 10, name: 'PAYLOAD', data: randomBytes(rand, int(rand, 2, 16) * 1024) } as PeResourceSpec];
    },
  },
  {
    // Small programs with few imports and no resources, like hand-written or tiny utilities.
    name: 'minimal',
    lean: true,
    imports: [
      [K32, 'ExitProcess'],
      [K32, 'GetStdHandle'],
      [K32, 'WriteFile'],
      [K32, 'GetCommandLineA'],
      ['msvcrt.dll', 'printf'],
      ['msvcrt.dll', 'puts'],
      [U32, 'MessageBoxA'],
      [K32, 'GetModuleHandleA'],
    ],
    strings: ['Hello World!', 'a simple program', 'usage: tool', 'ok', 'done'],
  },
  {
    name: 'service-tool',
    imports: [
      [A32, 'OpenProcessToken'],
      [A32, 'LookupPrivilegeValueW'],
      [A32, 'AdjustTokenPrivileges'],
      [K32, 'CreateToolhelp32Snapshot'],
      [K32, 'Process32FirstW'],
      [K32, 'Process32NextW'],
      [K32, 'OpenProcess'],
      ['dbghelp.dll', 'MiniDumpWriteDump'],
      [K32, 'OutputDebugStringW'],
      ['PSAPI.DLL', 'GetModuleBaseNameW'],
    ],
    strings: ['crashdump-%u.dmp', 'Process Monitor Lite', 'PID\tName\tThreads', 'SeDebugPrivilege', 'Access denied opening process %u'],
  },
];

function benignSample(rand: Rand, index: number): CorpusSample {
  const kind = BENIGN_KINDS[index % BENIGN_KINDS.length] as BenignKind;
  const name = `benign-${kind.name}`;
  const lean = kind.lean === true;
  const spec = commonSpec(rand, `${name}${index}`);
  spec.dll = kind.dll === true;
  spec.imports = importsOf(lean ? some(rand, kind.imports, 0.4, 1) : [...some(rand, kind.imports, 0.65, 3), ...some(rand, RUNTIME, 0.5, 6)]);
  const strings = [...some(rand, kind.strings, 0.7, lean ? 1 : 2), ...(lean ? [] : some(rand, RUNTIME_STRINGS, 0.4)), ...some(rand, COMMON_STRINGS, 0.25)];
  const wide = strings.filter(() => chance(rand, 0.3));
  spec.strings = strings.filter((s) => !wide.includes(s));
  spec.wideStrings = wide;
  if (lean) {
    delete spec.rich;
    delete spec.pdb;
  } else {
    if (chance(rand, 0.6)) spec.versionInfo = { strings: { CompanyName: pick(rand, VERSION_COMPANIES), FileDescription: `${kind.name} utility`, ProductName: 'Example Suite', FileVersion: `${int(rand, 1, 9)}.${int(rand, 0, 9)}.${int(rand, 0, 999)}` }, fileVersion: [int(rand, 1, 9), int(rand, 0, 9), int(rand, 0, 999), 0] };
    if (chance(rand, 0.5)) spec.manifest = MANIFEST;
    // Signed-looking files: a certificate blob with the CA's URLs (never URL evidence).
    if (chance(rand, 0.4)) spec.certificate = new TextEncoder().encode(`0\x82\x05\x00${some(rand, CERT_URLS, 0.6, 2).join('\0')}\0${'\x30'.repeat(int(rand, 64, 512))}`);
  }
  if (chance(rand, 0.2)) spec.sections = [{ name: '.data2', data: textBytes(rand, int(rand, 256, 4096)) }];
  if (chance(rand, 0.15)) spec.overlay = randomBytes(rand, int(rand, 256, 2048));
  kind.extra?.(rand, spec, index);
  return { name: `${name}-${String(index).padStart(3, '0')}.${kind.dll === true ? 'dll' : 'exe'}`, family: BENIGN, label: 0, bytes: buildPe(spec) };
}

/** Benign look-alikes only: the default benign corpus for rule validation. */
export function benignSamples(count: number, seed = 0): CorpusSample[] {
  const rand = mulberry32((seed ^ 0x5eed0b1e) >>> 0);
  return Array.from({ length: count }, (_, i) => benignSample(rand, i));
}

/** Family samples only, per family in FAMILIES order. */
export function familySamples(perFamily: number, seed = 0): CorpusSample[] {
  const out: CorpusSample[] = [];
  FAMILY_LIST.forEach((family, f) => {
    const rand = mulberry32((seed * 7919 + f * 104729 + 1) >>> 0);
    for (let i = 0; i < perFamily; i++) out.push(familySample(rand, family, i));
  });
  return out;
}

/** The whole synthetic corpus, deterministic in its options. */
export function syntheticCorpus(options: CorpusOptions = {}): CorpusSample[] {
  const perFamily = options.perFamily ?? 20;
  const seed = options.seed ?? 0;
  return [...familySamples(perFamily, seed), ...benignSamples(options.benign ?? 3 * perFamily, seed)];
}

// ---------------------------------------------------------------------------------------------
// On disk: <dir>/manifest.json and one file per sample.

export const MANIFEST_FILE = 'manifest.json';
const MAX_CORPUS_FILE_BYTES = 128 * 1024 * 1024;
const MAX_CORPUS_FILES = 100_000;

const manifestSchema = z.strictObject({
  format: z.literal('vitrine-petriage-corpus-1'),
  seed: z.number().int().nullable(),
  samples: z
    .array(
      z.strictObject({
        file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/),
        family: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
        label: z.union([z.literal(0), z.literal(1)]),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .max(MAX_CORPUS_FILES),
});

export type CorpusManifest = z.output<typeof manifestSchema>;

/** Writes the samples and a manifest into `dir` (created when missing); returns the manifest. */
export function writeCorpus(dir: string, samples: readonly CorpusSample[], seed: number | null = null): CorpusManifest {
  mkdirSync(dir, { recursive: true });
  const manifest: CorpusManifest = { format: 'vitrine-petriage-corpus-1', seed, samples: [] };
  for (const s of samples) {
    writeFileSync(path.join(dir, s.name), s.bytes);
    manifest.samples.push({ file: s.name, family: s.family, label: s.label, sha256: createHash('sha256').update(s.bytes).digest('hex') });
  }
  writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Reads a corpus written by writeCorpus; each file is checked against its recorded SHA-256. */
export function readCorpus(dir: string): CorpusSample[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    throw new VitrineError('validation_failed', 'the corpus has no readable manifest.json');
  }
  const manifest = validate(manifestSchema, raw, 'corpus manifest');
  return manifest.samples.map((s, i) => {
    const file = path.join(dir, s.file);
    let bytes: Uint8Array;
    try {
      if (statSync(file).size > MAX_CORPUS_FILE_BYTES) throw new VitrineError('payload_too_large', `corpus file ${i} is over 128 MiB`);
      bytes = new Uint8Array(readFileSync(file));
    } catch (err) {
      if (err instanceof VitrineError) throw err;
      throw new VitrineError('validation_failed', `corpus file ${i} cannot be read`);
    }
    if (createHash('sha256').update(bytes).digest('hex') !== s.sha256) throw new VitrineError('validation_failed', `corpus file ${i} does not match its recorded SHA-256`);
    return { name: s.file, family: s.family, label: s.label, bytes };
  });
}

/**
 * Whether bytes start like a PE file: `MZ`, an `e_lfanew` inside the file and `PE\0\0` there (dissect's first checks). A benign
 * corpus holds PE files only: a text file or an archive in the folder would count in its size and let a rule "hit" it.
 */
export function isPe(bytes: Uint8Array): boolean {
  if (bytes.length < 0x40 || bytes[0] !== 0x4d || bytes[1] !== 0x5a) return false;
  const lfanew = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0x3c, true);
  return lfanew + 4 <= bytes.length && bytes[lfanew] === 0x50 && bytes[lfanew + 1] === 0x45 && bytes[lfanew + 2] === 0 && bytes[lfanew + 3] === 0;
}

/** Every PE file directly in `dir` up to 128 MiB, as a benign corpus (for `--benign DIR`); larger files and files that are not PE are skipped. */
export function readBenignDirectory(dir: string): CorpusSample[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    throw new VitrineError('validation_failed', 'the benign corpus directory cannot be read');
  }
  const out: CorpusSample[] = [];
  for (const name of names) {
    if (out.length >= MAX_CORPUS_FILES) break;
    const file = path.join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_CORPUS_FILE_BYTES || name === MANIFEST_FILE) continue;
    const bytes = new Uint8Array(readFileSync(file));
    if (!isPe(bytes)) continue;
    out.push({ name, family: BENIGN, label: 0, bytes });
  }
  return out;
}

/** A labelled corpus featurised: per sample that parses, its feature row, its label and its tokens (for the family profiles). */
export interface FeaturizedCorpus {
  readonly rows: Float64Array[];
  readonly labels: number[];
  readonly tokenSets: { family: string; label: 0 | 1; tokens: Set<string> }[];
  /** Samples that are not parseable PEs, skipped. */
  readonly skipped: number;
}

/** Featurises labelled samples for training (both models); `beforeSample(i)` runs before the i-th sample (the caller's cancellation check and progress). */
export function featurizeCorpus(samples: readonly CorpusSample[], beforeSample: (index: number) => void): FeaturizedCorpus {
  const rows: Float64Array[] = [];
  const labels: number[] = [];
  const tokenSets: { family: string; label: 0 | 1; tokens: Set<string> }[] = [];
  let skipped = 0;
  samples.forEach((s, i) => {
    beforeSample(i);
    let d;
    try {
      d = dissect(s.bytes);
    } catch (err) {
      if (err instanceof VitrineError && err.code === 'parse_error') {
        skipped++;
        return;
      }
      throw err;
    }
    rows.push(featurize(d, s.bytes).values);
    labels.push(s.label);
    tokenSets.push({ family: s.family, label: s.label, tokens: fileTokens(d) });
  });
  return { rows, labels, tokenSets, skipped };
}
