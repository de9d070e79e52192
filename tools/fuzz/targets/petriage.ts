// Fuzz targets of petriage's parsers (tools/fuzz/fuzz.ts): the whole triage job an upload runs (dissect, capabilities,
// features, model, Authenticode, rule synthesis), the certificate table's signature reader and the resource tree on
// their own (each placed in a fixed writer-built PE), and the rule-text parser with the matcher behind rule validation.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { TriageResult } from '../../../engines/petriage/analyze.js';
import { MAX_LISTED_STRING_LENGTH, MAX_LISTED_STRINGS } from '../../../engines/petriage/analyze.js';
import { authenticode, LIMITS as SIGNATURE_LIMITS } from '../../../engines/petriage/authenticode/verify.js';
import { benignSamples, familySamples } from '../../../engines/petriage/corpus.js';
import { runAnalyzeJob, runValidateRuleJob } from '../../../engines/petriage/jobs.js';
import { dissect } from '../../../engines/petriage/pe/dissect.js';
import { LIMITS } from '../../../engines/petriage/pe/image.js';
import type { PeDissection } from '../../../engines/petriage/pe/types.js';
import { buildPe, type PeBuildSpec } from '../../../engines/petriage/pe/writer.js';
import { parse } from '../../../engines/petriage/rules.js';
import { synthesize } from '../../../engines/petriage/rulegen.js';
import { triageResultSchema, ruleValidationSchema } from '../../../engines/petriage/schemas.js';
import type { JobContext } from '../../../engines/core/jobs/protocol.js';
import { jsonProblem, type FuzzTarget } from '../fuzz.js';

/** The job context the worker host hands a job, without a host: never cancelled, progress and logs dropped. */
const JOB: JobContext = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };

const bytesOf = (file: string): Uint8Array => new Uint8Array(readFileSync(file));

/** Corpus PE files by name (benign corkami and Velociraptor test files, all small); [] without the corpora. */
function corpusPes(names: readonly string[]): Uint8Array[] {
  if (!hasCorpora()) return [];
  const out: Uint8Array[] = [];
  for (const sub of ['corkami', 'velociraptor']) {
    for (const f of readdirSync(corpusPath('pe', sub))) if (names.includes(f)) out.push(bytesOf(corpusPath('pe', sub, f)));
  }
  return out;
}

/** A number JSON cannot carry, a BigInt, a cycle or a polluted prototype anywhere in the value, or undefined. */
const unserialisable = (value: unknown): string | undefined => jsonProblem(value, Number.MAX_SAFE_INTEGER);

/** The dissection's documented caps (docs/petriage.md "Damaged input and limits"). */
function dissectionProblem(d: Omit<PeDissection, 'strings'>): string | undefined {
  if (d.notes.length > LIMITS.maxNotes + 1) return 'more notes than the cap';
  if (d.sections.length > LIMITS.maxSections) return 'more sections than the cap';
  if ([...d.imports, ...d.delay_imports].reduce((n, x) => n + x.symbols.length, 0) > LIMITS.maxImportSymbols) return 'more import symbols than the cap';
  if ((d.exports?.symbols.length ?? 0) > 2 * LIMITS.maxExports + 2) return 'more exports than the cap';
  if (d.resources.entries.length > LIMITS.maxResourceLeaves) return 'more resource leaves than the cap';
  if ((d.tls?.callbacks.length ?? 0) > LIMITS.maxTlsCallbacks) return 'more TLS callbacks than the cap';
  if (d.debug.length > LIMITS.maxDebugEntries) return 'more debug entries than the cap';
  if ((d.certificate?.entries.length ?? 0) > LIMITS.maxCertificates) return 'more certificate entries than the cap';
  if ((d.resources.manifest?.length ?? 0) > 64 * 1024) return 'a manifest over 64 KiB';
  for (const [k, v] of Object.entries(d.resources.version_info?.strings ?? {})) if (k.length > 1024 || v.length > 8192) return 'a version string over its cap';
  return undefined;
}

// ---- petriage-triage: the analyze job POST /api/analyze and `petriage analyze` run

function triageSeeds(): Uint8Array[] {
  const corpus = corpusPes(['signature.exe', 'resource_icon.exe', 'version_std.exe', 'tls64.exe', 'delayimports.exe', 'dllfw.dll', 'dotnet20.exe', 'compiled.exe', 'notnbt.exe', 'wkscli.dll']);
  // Two writer-built family samples: their verdict is not BENIGN, so the candidate rule is synthesised and validated.
  return [...corpus, ...familySamples(1, 3).slice(0, 2).map((s) => s.bytes)];
}

function triageCheck(result: unknown): string | undefined {
  const r = result as TriageResult;
  // POST /api/analyze answers 500 for a result outside the schema.
  if (!triageResultSchema.safeParse(r).success) return 'the result does not pass triageResultSchema';
  const bad = unserialisable(r);
  if (bad !== undefined) return bad;
  if (!(r.score >= 0 && r.score <= 1)) return 'a score outside [0, 1]';
  if (r.pe.strings.items.length > MAX_LISTED_STRINGS) return 'more listed strings than the cap';
  if (r.pe.strings.items.some((s) => s.value.length > MAX_LISTED_STRING_LENGTH)) return 'a listed string over its cap';
  // Two notes a section at most, the structure notes (capped), and a few per signature and table entry.
  if (r.notes.length > 2 * LIMITS.maxSections + LIMITS.maxNotes + 1 + 400) return 'more notes than the sections, the structure notes and the signatures give';
  if ((r.authenticode?.signatures.length ?? 0) > SIGNATURE_LIMITS.tableSignatures) return 'more signatures than the table cap';
  const p = dissectionProblem(r.pe);
  if (p !== undefined) return p;
  if (r.rule !== null) {
    // A candidate rule is written to parse back in the subset (the caller may validate or save it).
    try {
      parse(r.rule.text);
    } catch {
      return 'the candidate rule does not parse';
    }
  }
  return undefined;
}

// ---- petriage-authenticode: the certificate table's signature blob, in one WIN_CERTIFICATE of a fixed PE

const SIGNED_SPEC: PeBuildSpec = { format: 'PE32', imports: [{ dll: 'kernel32.dll', symbols: ['Sleep', 'ExitProcess'] }], strings: ['fuzz template'] };

/** The blob after the WIN_CERTIFICATE header of the first certificate entry of a PE. */
function certificateBlob(pe: Uint8Array): Uint8Array | null {
  const d = dissect(pe);
  const e = d.certificate?.entries[0];
  return e === undefined ? null : pe.slice(e.offset + 8, e.offset + e.length);
}

/**
 * Signatures over SIGNED_SPEC's file, made once with authenticode/sign.fixture.ts (a root, a signer and a timestamp
 * authority): SHA-256 with an RFC 3161 stamp and a program name, SHA-1 with a legacy countersignature. Kept as files so
 * the CI run mutates the same bytes each time; they read as intact in the template.
 */
const SIGNED_BLOBS = ['signed-sha256-rfc3161.p7b', 'signed-sha1-legacy.p7b'];
const AUTHENTICODE_TESTDATA = new URL('../../../engines/petriage/authenticode/testdata/', import.meta.url);

function authenticodeSeeds(): Uint8Array[] {
  const real = corpusPes(['signature.exe'])
    .map(certificateBlob)
    .filter((b): b is Uint8Array => b !== null);
  return [...real, ...SIGNED_BLOBS.map((f) => bytesOf(fileURLToPath(new URL(f, AUTHENTICODE_TESTDATA))))];
}

function runAuthenticode(blob: Uint8Array): unknown {
  const pe = buildPe({ ...SIGNED_SPEC, certificate: blob });
  return authenticode(pe, dissect(pe));
}

function authenticodeCheck(result: unknown): string | undefined {
  const r = result as ReturnType<typeof authenticode>;
  if (r === null) return 'no result for a file with a certificate table';
  const bad = unserialisable(r);
  if (bad !== undefined) return bad;
  if (r.signatures.length > 1 + SIGNATURE_LIMITS.nested) return 'more signatures than one entry and its nested ones';
  if (r.signatures.reduce((n, s) => n + s.certificates.length, 0) > SIGNATURE_LIMITS.tableCertificates) return 'more certificates than the table cap';
  for (const s of r.signatures) {
    if (s.certificates.length > SIGNATURE_LIMITS.certificates) return 'more certificates than the cap';
    if (s.chain.length > SIGNATURE_LIMITS.chain) return 'a chain longer than the cap';
    if ((s.program_name?.length ?? 0) > 256 || (s.more_info?.length ?? 0) > 1024) return 'a program name or URL over its cap';
  }
  return undefined;
}

// ---- petriage-resources: a resource section's bytes, as the last section of a fixed PE

const RESOURCE_SPEC: PeBuildSpec = {
  format: 'PE32',
  resources: [
    { type: 10, name: 1, data: new TextEncoder().encode('payload') },
    { type: 'CONFIG', name: 'SETTINGS', data: Uint8Array.of(1, 2, 3, 4) },
  ],
  versionInfo: { strings: { CompanyName: 'Fuzz Co', FileDescription: 'fuzz', OriginalFilename: 'fuzz.exe' }, fileVersion: [1, 2, 3, 4] },
  manifest: '<?xml version="1.0"?><assembly xmlns="urn:schemas-microsoft-com:asm.v1" manifestVersion="1.0"/>',
};

/** The template PE and where its resource section's table entry and data are. */
interface ResourceTemplate {
  readonly pe: Uint8Array;
  readonly entry: number;
  readonly rawOffset: number;
}

let resourceTemplate: ResourceTemplate | undefined;

function template(): ResourceTemplate {
  if (resourceTemplate !== undefined) return resourceTemplate;
  const pe = buildPe(RESOURCE_SPEC);
  const d = dissect(pe);
  const last = d.sections.at(-1);
  const dir = d.data_directories.find((x) => x.name === 'RESOURCE');
  if (last === undefined || dir === undefined || dir.virtual_address !== last.virtual_address) throw new Error('fuzz template: the resource section is not the last one');
  const entry = d.dos_header.e_lfanew + 24 + d.file_header.size_of_optional_header + 40 * last.index;
  resourceTemplate = { pe, entry, rawOffset: last.raw_offset };
  return resourceTemplate;
}

function resourceSeeds(): Uint8Array[] {
  const t = template();
  return [t.pe.slice(t.rawOffset)];
}

function runResources(section: Uint8Array): unknown {
  const t = template();
  const pe = new Uint8Array(t.rawOffset + section.length);
  pe.set(t.pe.subarray(0, t.rawOffset));
  pe.set(section, t.rawOffset);
  const view = new DataView(pe.buffer);
  view.setUint32(t.entry + 8, Math.max(section.length, 1), true);
  view.setUint32(t.entry + 16, section.length, true);
  return dissect(pe);
}

function resourceCheck(result: unknown): string | undefined {
  return unserialisable(result) ?? dissectionProblem(result as PeDissection);
}

// ---- petriage-rules: rule text as POST /api/rule/validate takes it, parsed and run over the benign corpus

function ruleSeeds(): Uint8Array[] {
  const enc = new TextEncoder();
  const texts = [
    'rule first : tag1 tag2 {\n  meta:\n    author = "a"\n    score = -3\n    ok = true\n  strings:\n    $a = "GetProcAddress" ascii wide\n    $b = "http://\\x41" nocase fullword\n  condition:\n    uint16(0) == 0x5A4D and ($a or 2 of them)\n}\nrule second { strings: $x = "x1y2z3" condition: any of them }\n',
    'rule r : t { meta: k = "v\\\\w" strings: $a = "q\\"x" wide $b = "tab\\there" ascii wide nocase condition: uint16(0) == 0x5A4D and ($a or 2 of them) }',
    '/* block */ rule broad { condition: uint16(0) == 0x5A4D } // line\nrule k { strings: $a = "kernel32" nocase $b = "a" $c = "MZ" condition: all of them or ($a and ($b or $c)) }\n',
  ];
  // Rules the synthesiser writes for family samples, as `analyze` offers them.
  const benign = benignSamples(20, 1).map((s) => ({ name: s.name, bytes: s.bytes }));
  for (const s of familySamples(1, 5).slice(0, 2)) {
    const rule = synthesize(dissect(s.bytes), { benign, label: 'fuzz', verdict: 'MALICIOUS', score: 0.9 });
    if (rule !== null) texts.push(rule.text);
  }
  return texts.map((t) => enc.encode(t));
}

const decoder = new TextDecoder();

function ruleCheck(result: unknown, input: Uint8Array): string | undefined {
  if (!ruleValidationSchema.safeParse(result).success) return 'the result does not pass ruleValidationSchema';
  const bad = unserialisable(result);
  if (bad !== undefined) return bad;
  // The subset's documented limits (docs/petriage.md "Rules"), on what the accepted text parses to.
  const rules = parse(decoder.decode(input));
  if (rules.length > 256) return 'more than 256 rules accepted';
  for (const r of rules) {
    if (r.strings.length > 256) return 'more than 256 strings in a rule accepted';
    if (r.strings.some((x) => x.bytes.length > 4096)) return 'a text string over 4,096 bytes accepted';
  }
  return undefined;
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'petriage-triage',
    about: 'the analyze job an upload runs: dissect, capabilities, features, model, Authenticode, candidate rule',
    seeds: triageSeeds,
    // One analysis before the clock starts: the engine's modules, the model and the benign corpus are loaded then.
    prepare: () => runAnalyzeJob({ data: triageSeeds()[0]! }, JOB),
    run: (input) => runAnalyzeJob({ data: input }, JOB),
    check: triageCheck,
  },
  {
    name: 'petriage-authenticode',
    about: "a certificate table's PKCS#7 signature in one WIN_CERTIFICATE of a fixed PE: DER, certificates, timestamps",
    seeds: authenticodeSeeds,
    run: runAuthenticode,
    check: authenticodeCheck,
  },
  {
    name: 'petriage-resources',
    about: 'a resource section (tree, version information, manifest) as the last section of a fixed PE',
    seeds: resourceSeeds,
    run: runResources,
    check: resourceCheck,
  },
  {
    name: 'petriage-rules',
    about: 'YARA-subset rule text as POST /api/rule/validate takes it: parsed, then matched over the benign corpus',
    seeds: ruleSeeds,
    prepare: () => runValidateRuleJob({ text: decoder.decode(ruleSeeds()[0]!) }, JOB),
    run: (input) => runValidateRuleJob({ text: decoder.decode(input) }, JOB),
    check: ruleCheck,
  },
];
