// Capability tagging: name normalisation, the shipped rules on writer-built PEs and on the benign corpus, URL-evidence exclusions.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { capabilitiesOf, loadCapabilityRules, parseCapabilityRules, tagCapabilities, tagImports, tagRaw, urlEvidence, type Capability } from './capabilities.js';
import { dissect } from './pe/index.js';
import { buildPe, type PeBuildSpec } from './pe/writer.js';

const rules = loadCapabilityRules();
const ids = (caps: readonly Capability[]): string[] => caps.map((c) => c.id).sort();

describe('the shipped rules file', () => {
  it('compiles, with unique ids and an ATT&CK technique id for every rule', () => {
    expect(rules.rules.length).toBeGreaterThan(30);
    expect(new Set(rules.rules.map((r) => r.id)).size).toBe(rules.rules.length);
    for (const r of rules.rules) expect(r.technique.id).toMatch(/^T\d{4}(\.\d{3})?$/);
    const tags = new Set(rules.rules.map((r) => r.tag));
    for (const t of ['injection', 'keylogging', 'persistence', 'anti-debugging', 'crypto', 'networking', 'credential-access']) expect(tags).toContain(t);
  });

  it('rejects a malformed rules file with the field path, not the value', () => {
    expect(() => parseCapabilityRules('version: 1\nurl_evidence: {}\ncapabilities: [{id: x, tag: y, name: z, technique: {id: Zq9-secret, name: n}, url: true}]')).toThrow(/capabilities\[0\]\.technique\.id/);
    expect(() => parseCapabilityRules('version: 1\nurl_evidence: {}\ncapabilities: [{id: x, tag: y, name: z, technique: {id: T1000, name: n}, strings: [{regex: ["(unclosed"]}]}]')).toThrow(/not a valid regular expression/);
    expect(() => parseCapabilityRules('version: 1\nurl_evidence: {}\ncapabilities: [{id: x, tag: y, name: z, technique: {id: T1000, name: n}}]')).toThrow(/at capabilities\[0\]: invalid value/);
    expect(() => parseCapabilityRules(': : :\n\t- [')).toThrow(/not valid YAML/);
  });
});

describe('tagImports', () => {
  it('compares names without case, with the A/W suffix dropped and Zw read as Nt', () => {
    const spelled = [
      ['VirtualAllocEx', 'WriteProcessMemory', 'CreateRemoteThread'],
      ['virtualallocex', 'WRITEPROCESSMEMORY', 'createremotethreadex'],
      ['ZwAllocateVirtualMemory', 'ZwWriteVirtualMemory', 'ZWCREATETHREADEX'],
    ];
    for (const names of spelled) expect(ids(tagImports(names, rules))).toContain('inject-remote-thread');
    const hook = tagImports(['SetWindowsHookExW', 'CallNextHookEx', 'GetKeyStatea'], rules);
    expect(ids(hook)).toEqual(['keylog-hook']);
    const ev = hook[0]?.evidence ?? [];
    expect(ev).toContainEqual({ kind: 'import', api: 'SetWindowsHookEx', name: 'SetWindowsHookExW', dll: null });
    expect(ev).toContainEqual({ kind: 'import', api: 'GetKeyState', name: 'GetKeyStatea', dll: null });
  });

  it('does not drop a final a or w that belongs to the name, nor fire on part of a rule', () => {
    // ShowWindow must not become ShowWindo; one injection API is not injection.
    expect(tagImports(['ShowWindow', 'GetWindowTextW'], rules)).toEqual([]);
    expect(tagImports(['WriteProcessMemory'], rules)).toEqual([]);
    expect(tagImports(['CreateFileW', 'ReadFile', 'CloseHandle', 'IsDebuggerPresent'], rules)).toEqual([]);
  });

  it('counts distinct names for a group minimum', () => {
    expect(tagImports(['IsDebuggerPresent', 'IsDebuggerPresent'], rules)).toEqual([]);
    expect(ids(tagImports(['IsDebuggerPresent', 'CheckRemoteDebuggerPresent'], rules))).toEqual(['anti-debug-api']);
    expect(ids(tagImports(['GetComputerNameW', 'GetUserNameA', 'GetVersionExW'], rules))).toEqual(['system-information']);
  });

  it('ignores rules that also need strings', () => {
    expect(ids(tagImports(['RegSetValueExW'], rules))).toEqual([]);
    expect(ids(tagCapabilities({ imports: ['RegSetValueExW'], strings: ['Software\\Microsoft\\Windows\\CurrentVersion\\Run'] }))).toEqual(['run-key']);
  });
});

describe('tagRaw', () => {
  it('fires string rules with the strings as evidence', () => {
    const caps = tagRaw(['cmd.exe /c del %s', 'vssadmin.exe Delete Shadows /All /Quiet', 'hello'], { rules });
    expect(ids(caps)).toEqual(['command-shell', 'inhibit-recovery']);
    expect(caps.find((c) => c.id === 'inhibit-recovery')?.evidence).toEqual([{ kind: 'string', value: 'vssadmin.exe Delete Shadows /All /Quiet', offset: null, encoding: null }]);
    expect(tagRaw(['[ENTER]', '[SHIFT]'], { rules })).toEqual([]);
    expect(ids(tagRaw(['[ENTER]', '[SHIFT]', '[BACKSPACE]'], { rules }))).toEqual(['keylog-strings']);
  });

  it('URL evidence: a plain URL counts; XML namespaces and certificate infrastructure never do', () => {
    const counted = ['http://c2.example.invalid/gate.php', 'https://198.51.100.7:8443/x', 'ftp://files.example.net/a'];
    const ignored = [
      '<assembly xmlns="urn:schemas-microsoft-com:asm.v1"><ws:dpiAware xmlns:ws="http://schemas.microsoft.com/SMI/2005/WindowsSettings">true</ws:dpiAware>',
      'http://www.w3.org/2000/09/xmldsig#',
      'http://crl.microsoft.com/pki/crl/products/MicCodSigPCA_08-31-2010.crl',
      'http://www.microsoft.com/pkiops/certs/MicCodSigPCA2011_2011-07-08.crt',
      'http://ocsp.digicert.com',
      'http://timestamp.sectigo.com',
      'http://cacerts.example-ca.invalid/root.crt',
      'http://crl3.example-ca.invalid/sha2-assured-cs-g1.crl',
      'http://www.digicert.com/CPS',
      'https://example-ca.invalid/repository/',
    ];
    const ev = urlEvidence(rules, [...counted, ...ignored].map((value) => ({ value })));
    expect(ev.map((e) => (e.kind === 'import' ? e.name : e.value))).toEqual(['http://c2.example.invalid/gate.php', 'https://198.51.100.7:8443/x', 'ftp://files.example.net/a']);
    expect(tagRaw(ignored, { rules })).toEqual([]);
  });

  it('strings in an excluded range (the certificate table) never count', () => {
    const strings = [{ value: 'http://c2.example.invalid/a', offset: 5000 }, { value: 'cmd /c whoami', offset: 5100 }];
    expect(tagRaw(strings, { rules, exclude: [{ start: 4096, end: 6000 }] })).toEqual([]);
    expect(ids(tagRaw(strings, { rules, exclude: [{ start: 0, end: 4096 }] }))).toEqual(['command-shell', 'url-strings']);
  });
});

describe('writer-built PEs', () => {
  const base: PeBuildSpec = { imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }] };

  it('an injector-shaped file: injection and hollowing from its imports, with the DLL in the evidence', () => {
    const d = dissect(
      buildPe({
        format: 'PE32+',
        imports: [
          { dll: 'KERNEL32.dll', symbols: ['OpenProcess', 'VirtualAllocEx', 'WriteProcessMemory', 'CreateRemoteThread', 'ResumeThread', 'SetThreadContext'] },
          { dll: 'ntdll.dll', symbols: ['ZwUnmapViewOfSection'] },
        ],
      }),
    );
    const caps = capabilitiesOf(d, rules);
    expect(ids(caps)).toEqual(['inject-remote-thread', 'process-hollowing']);
    const hollow = caps.find((c) => c.id === 'process-hollowing');
    expect(hollow?.technique).toEqual({ id: 'T1055.012', name: 'Process Injection: Process Hollowing' });
    expect(hollow?.evidence).toContainEqual({ kind: 'import', api: 'NtUnmapViewOfSection', name: 'ZwUnmapViewOfSection', dll: 'ntdll.dll' });
  });

  it('ws2_32 ordinal imports count by the name the ordinal stands for; delay-load imports count', () => {
    const d = dissect(buildPe({ ...base, imports: [{ dll: 'WS2_32.dll', symbols: [23, 4, 19, 16] }], delayImports: [{ dll: 'WININET.dll', symbols: ['InternetOpenW', 'InternetOpenUrlW'] }] }));
    const caps = capabilitiesOf(d, rules);
    expect(ids(caps)).toEqual(['http-client', 'raw-sockets']);
    expect(caps.find((c) => c.id === 'raw-sockets')?.evidence.map((e) => (e.kind === 'import' ? e.name : ''))).toEqual(['socket', 'connect', 'send', 'recv']);
  });

  it('persistence from an import and a UTF-16 Run-key string, with the string offset', () => {
    const bytes = buildPe({ ...base, imports: [{ dll: 'ADVAPI32.dll', symbols: ['RegOpenKeyExW', 'RegSetValueExW'] }], wideStrings: ['Software\\Microsoft\\Windows\\CurrentVersion\\Run'] });
    const caps = capabilitiesOf(dissect(bytes), rules);
    expect(ids(caps)).toEqual(['run-key']);
    const s = caps[0]?.evidence.find((e) => e.kind === 'string');
    expect(s).toMatchObject({ kind: 'string', value: 'Software\\Microsoft\\Windows\\CurrentVersion\\Run', encoding: 'utf16le' });
    const at = s && s.kind === 'string' ? (s.offset ?? -1) : -1;
    expect(Buffer.from(bytes.subarray(at, at + 16)).toString('utf16le')).toBe('Software');
  });

  it('URLs in the certificate table and the manifest are not URL evidence; the same URL in .rdata is', () => {
    const url = 'http://update.example.invalid/check';
    const manifest = `<?xml version="1.0"?><assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0"><application xmlns="urn:schemas-microsoft-com:asm.v3"><windowsSettings><dpiAware xmlns="http://schemas.microsoft.com/SMI/2005/WindowsSettings">true</dpiAware><x y="${url}"/></windowsSettings></application></assembly>`;
    const cert = new TextEncoder().encode(`\x30\x82${url}\0http://crl.example-ca.invalid/ca.crl\0`);
    const signedOnly = capabilitiesOf(dissect(buildPe({ ...base, manifest, certificate: cert })), rules);
    expect(signedOnly).toEqual([]);
    const plain = capabilitiesOf(dissect(buildPe({ ...base, manifest, certificate: cert, strings: [url] })), rules);
    expect(ids(plain)).toEqual(['url-strings']);
    expect(plain[0]?.evidence).toEqual([expect.objectContaining({ kind: 'url', value: url, encoding: 'ascii' })]);
  });

  it('a second DOS stub inside the file is an embedded payload', () => {
    const inner = buildPe(base);
    expect(capabilitiesOf(dissect(buildPe(base)), rules)).toEqual([]);
    expect(ids(capabilitiesOf(dissect(buildPe({ ...base, resources: [{ type: 10, name: 1, data: inner }] })), rules))).toEqual(['embedded-pe']);
  });
});

describe.skipIf(!hasCorpora())('the benign corpus', () => {
  it('gives no capability on any corkami or Velociraptor file', () => {
    let files = 0;
    for (const sub of ['corkami', 'velociraptor']) {
      for (const name of readdirSync(corpusPath('pe', sub))) {
        if (!/\.(exe|dll|sys)$/.test(name)) continue;
        const d = dissect(new Uint8Array(readFileSync(corpusPath('pe', sub, name))));
        expect({ name, caps: ids(capabilitiesOf(d, rules)) }).toEqual({ name, caps: [] });
        files++;
      }
    }
    expect(files).toBe(28);
  });
});
