// Fuzz targets of forensic's parsers (tools/fuzz/fuzz.ts): every artefact format the ingest reads, through the
// entry a job uses (ingestArtifact: hash, detect from content, load, finalise), the EVTX parser alone in its four
// renderings, and a custom Sigma rule file through the rule loader the `--rules` option uses (YAML structure
// mutations: yaml-mutate.ts). The EVTX targets get EVTX structure mutations (evtx/mutate.fixture.ts) between byte ones.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { parseAllDocuments } from 'yaml';
import { VitrineError } from '../../../engines/core/errors.js';
import { EvtxParser, parseEvtx, type EvtxOptions, type EvtxReader } from '../../../engines/forensic/evtx/index.js';
import { mutateEvtx } from '../../../engines/forensic/evtx/mutate.fixture.js';
import { DEFAULT_MAX_WARNINGS, ingestArtifact, type IngestResult } from '../../../engines/forensic/ingest.js';
import { loadSigmaRules, type SigmaRuleSet } from '../../../engines/forensic/sigma/ruleset.js';
import { corpusPath, REPO_ROOT } from '../../../test/corpora.js';
import type { FuzzTarget, StructureMode } from '../fuzz.js';

/** This worker's scratch folder (the evidence root the artefact is written into), made once. */
let scratch: string | undefined;
function scratchDir(): string {
  if (scratch === undefined) {
    scratch = path.join(tmpdir(), `vitrine-fuzz-forensic-${process.pid}-${threadId}`);
    mkdirSync(scratch, { recursive: true });
  }
  return scratch;
}

/** Writes the input to this worker's one scratch file and returns its path. */
function scratchFile(name: string, input: Uint8Array): string {
  const file = path.join(scratchDir(), name);
  writeFileSync(file, input);
  return file;
}

/** Whole files, or their first `maxBytes` (text formats cut anywhere), of those that exist. */
function readSeeds(files: readonly string[], maxBytes = 256 * 1024): Uint8Array[] {
  return files.filter((f) => existsSync(f)).map((f) => new Uint8Array(readFileSync(f).subarray(0, maxBytes)));
}

/**
 * Ingest answers any exception a loader throws with a generic parse_error that carries it as its cause; the loader
 * then lost the whole artefact to a fault it did not design. That cause is rethrown so the finding is the loader's.
 */
function ingest(input: Uint8Array): IngestResult {
  const file = scratchFile('artefact', input);
  try {
    return ingestArtifact(file, { evidenceRoot: scratchDir() });
  } catch (e) {
    if (e instanceof VitrineError && e.cause !== undefined && !(e.cause instanceof VitrineError)) throw e.cause;
    throw e;
  }
}

/** Longest text an event may carry in one string (clip() cuts summaries and attributes at 4,096). */
const MAX_STRING = 64 * 1024;

function longString(v: unknown, depth = 0): string | undefined {
  if (typeof v === 'string') return v.length > MAX_STRING ? `a string of ${v.length} characters` : undefined;
  if (depth > 64) return 'a value nested over 64 levels';
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) {
      const p = longString(x, depth + 1);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/** What a caller of ingest relies on: JSON carries the result, counts agree, warnings are capped, output is bounded. */
function checkIngest(result: unknown, input: Uint8Array): string | undefined {
  const r = result as IngestResult;
  let json: string;
  try {
    json = JSON.stringify(r);
  } catch (e) {
    return `the result does not serialise (${e instanceof Error ? e.name : 'error'})`;
  }
  if (r.artifact.events !== r.events.length) return 'the event count differs from the events returned';
  if (r.artifact.warnings.length > DEFAULT_MAX_WARNINGS) return 'more warnings kept than the cap';
  if (!Number.isSafeInteger(r.artifact.warningCount) || r.artifact.warningCount < r.artifact.warnings.length) return 'the warning count is not a count of the warnings';
  if (r.artifact.size !== input.length) return 'the artefact size is not the input size';
  // Templates and repeated values legitimately expand; a thousand-fold output is a runaway.
  if (json.length > 1000 * input.length + (1 << 20)) return 'the result is over a thousand times the input';
  for (const e of r.events) {
    const p = longString(e);
    if (p !== undefined) return `an event holds ${p}`;
  }
  return undefined;
}

const evtx = (...names: string[]): string[] => names.map((n) => corpusPath('evtx', ...n.split('/')));
const logs = (...names: string[]): string[] => names.map((n) => corpusPath('logs', ...n.split('/')));

function ingestTarget(format: string, about: string, files: () => string[], maxBytes?: number, structure?: StructureMode, mutate?: FuzzTarget['mutate']): FuzzTarget {
  return { name: `forensic-${format}`, about, seeds: () => readSeeds(files(), maxBytes), run: ingest, check: checkIngest, ...(structure === undefined ? {} : { structure }), ...(mutate === undefined ? {} : { mutate }) };
}

// ---- the EVTX parser alone

/** EVTX structure mutations: cuts at chunk, record and template boundaries, hostile table fields, nested templates. */
const evtxMutation: FuzzTarget['mutate'] = (rand, seed) => mutateEvtx(seed, rand).bytes;

const EVTX_SEEDS = ['evtx-crate/Application_no_crc32.evtx', 'evtx-crate/MSExchange_Management_wec.evtx', 'evtx-crate/Microsoft-Windows-HelloForBusiness%4Operational.evtx', 'chainsaw/security_sample.evtx', 'attack-samples/LM_sysmon_psexec_smb_meterpreter.evtx', 'attack-samples/Powershell_4104_MiniDumpWriteDump_Lsass.evtx'];

/** The four renderings the callers use, one input each in turn. */
const EVTX_MODES: readonly EvtxOptions[] = [{ json: true }, { json: true, xml: true }, { json: false, parts: true }, { json: false, data: true }];
let evtxRuns = 0;
let evtxexport = false;

interface EvtxParsed {
  readonly records: number;
  readonly warnings: readonly string[];
}

function runEvtx(input: Uint8Array): EvtxParsed {
  const { records, summary } = parseEvtx(input, EVTX_MODES[evtxRuns++ % EVTX_MODES.length]);
  return { records: records.length, warnings: summary.warnings.map((w) => w.message) };
}

/** A message names no path, scratch folder or source line. */
const leaks = (message: string): boolean => message.includes(tmpdir()) || message.includes(REPO_ROOT) || /\bat .*\.ts:\d+/.test(message);

function checkEvtx(result: unknown): string | undefined {
  const r = result as EvtxParsed;
  return r.warnings.some(leaks) ? 'a warning names a path or a source line' : undefined;
}

/** The records libevtx's `evtxexport` reads from the input, or undefined when it did not finish. */
function evtxexportCount(input: Uint8Array): number | undefined {
  const file = scratchFile('compare.evtx', input);
  const r = spawnSync('evtxexport', [file], { encoding: 'utf8', timeout: 20_000, maxBuffer: 1 << 28 });
  if (r.status === null || r.error !== undefined) return undefined;
  return (r.stdout.match(/^Event number\s*:/gm) ?? []).length;
}

/** With the `evtxexport` option, every tenth input that parses: a differing record count, as a hint. */
function noteEvtx(result: unknown, input: Uint8Array): string | undefined {
  if (!evtxexport || evtxRuns % 10 !== 1) return undefined;
  const ours = (result as EvtxParsed).records;
  const theirs = evtxexportCount(input);
  if (theirs === undefined || theirs === ours) return undefined;
  return `evtxexport reads ${theirs < ours ? 'fewer' : 'more'} records than the parser`;
}

/** A custom rule file as `--rules` reads it: the rule loader lists a bad rule as skipped, never throws on it. */
function loadRuleFile(input: Uint8Array): SigmaRuleSet {
  const file = scratchFile('rule.yml', input);
  return loadSigmaRules({ sources: [{ name: 'user', path: file }], statuses: ['stable', 'test', 'experimental', 'deprecated', 'unsupported'], minLevel: 'informational' });
}

/** Whole-file refusals, each listed as one skipped entry for the file. */
const FILE_REFUSALS = new Set(['not YAML', 'rule file larger than 1 MiB', 'cannot be read']);

/** The non-empty YAML documents of a rule file as the loader reads them, or undefined when they cannot be read so. */
function documentCount(input: Uint8Array): number | undefined {
  try {
    const docs = parseAllDocuments(new TextDecoder().decode(input));
    const list = Array.isArray(docs) ? docs : [docs];
    if (list.some((d) => d.errors.length > 0)) return undefined;
    return list.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((d) => d !== null && d !== undefined).length;
  } catch {
    return undefined;
  }
}

/**
 * What the rule loader promises: the result serialises, reasons are short, and every document of the file is accounted
 * for (loaded, left out by the selection, inapplicable, listed as skipped with its reason, or a correlation), or the
 * whole file is listed as refused: never a rule silently dropped.
 */
function checkRules(result: unknown, input: Uint8Array): string | undefined {
  const r = result as SigmaRuleSet;
  try {
    JSON.stringify(r.skipped);
    JSON.stringify(r.rules);
    JSON.stringify(r.correlations);
  } catch (e) {
    return `the rule set does not serialise (${e instanceof Error ? e.name : 'error'})`;
  }
  for (const s of r.skipped) if (s.reason.length > 1024) return 'a skip reason over 1,024 characters';
  if (r.skipped.some((s) => s.id === null && FILE_REFUSALS.has(s.reason))) return undefined;
  const docs = documentCount(input);
  const accounted = r.rules.length + r.stats.deselected + r.inapplicable.length + r.skipped.length + r.correlations.length;
  if (docs !== undefined && accounted !== docs) return `${docs} rule document(s), ${accounted} loaded, left out or listed as skipped`;
  return undefined;
}

/** The bytes as the raw-record route reads a stored artefact. */
const memoryReader = (b: Uint8Array): EvtxReader => ({
  size: b.length,
  readInto: (into, position) => {
    if (position < 0 || position >= b.length) return 0;
    const part = b.subarray(position, position + into.length);
    into.set(part);
    return part.length;
  },
});

/**
 * The raw-record look-ups against the walk of the whole file: for up to 64 records the walk gives, `recordAtSync` at
 * its offset gives that record and `recordByIdSync` of its identifier gives a walked record with it, or null;
 * look-ups at offsets and identifiers the walk has not (beside a record, past the end, negative) give null or a walked
 * record.
 */
function runEvtxLookup(input: Uint8Array): string | undefined {
  const options: EvtxOptions = { json: false, xml: true };
  const walked = parseEvtx(input, options).records;
  const file = memoryReader(input);
  const offsets = new Set(walked.map((r) => r.offset));
  const step = Math.max(1, Math.floor(walked.length / 64));
  for (let i = 0; i < walked.length; i += step) {
    const r = walked[i]!;
    const at = new EvtxParser(options).recordAtSync(file, r.offset);
    if (at === null || at.recordId !== r.recordId || at.xml !== r.xml) return 'recordAtSync differs from the walk at a walked offset';
    // null is allowed: a chunk header whose checksum holds is believed, and a record outside its identifier range is
    // not looked for (lookup.test.ts); nor is an identifier past 2^53, which a double cannot hold.
    const byId = new EvtxParser(options).recordByIdSync(file, r.recordId);
    if (byId !== null && (byId.recordId !== r.recordId || !offsets.has(byId.offset))) return 'recordByIdSync gives a record the walk has not with that identifier';
  }
  for (const offset of [-1, 0, 4096, 4096 + 512, input.length, 2 ** 53, ...walked.slice(0, 8).map((r) => r.offset + 1)]) {
    const at = new EvtxParser(options).recordAtSync(file, offset);
    if (at !== null && !offsets.has(at.offset)) return 'recordAtSync gives a record the walk has not';
  }
  for (const id of [-1, 0, 2 ** 53, Number.NaN, ...walked.slice(0, 8).map((r) => r.recordId + 1_000_000)]) {
    const r = new EvtxParser(options).recordByIdSync(file, id);
    if (r !== null && !offsets.has(r.offset)) return 'recordByIdSync gives a record the walk has not';
  }
  return undefined;
}

export const TARGETS: readonly FuzzTarget[] = [
  ingestTarget('evtx', 'Windows event log (.evtx): file header, chunks, BinXML templates, through ingest', () =>
    evtx(...EVTX_SEEDS),
    undefined,
    undefined,
    evtxMutation,
  ),
  {
    name: 'forensic-evtx-parse',
    about: 'the EVTX parser alone (parseEvtx), its JSON, JSON+XML, parts and data renderings in turn',
    seeds: () => readSeeds(evtx(...EVTX_SEEDS), 2 * 1024 * 1024),
    run: runEvtx,
    check: checkEvtx,
    mutate: evtxMutation,
    options: { evtxexport: 'every tenth input that parses is read by libevtx evtxexport too; a differing record count is a hint' },
    configure: (options) => {
      evtxexport = options.includes('evtxexport');
    },
    note: noteEvtx,
  },
  {
    name: 'forensic-evtx-lookup',
    about: 'the raw-record look-ups (recordAtSync, recordByIdSync) against the walk of the whole file',
    seeds: () => readSeeds(evtx(...EVTX_SEEDS), 2 * 1024 * 1024),
    run: runEvtxLookup,
    check: (problem) => (typeof problem === 'string' ? problem : undefined),
    mutate: evtxMutation,
  },
  ingestTarget('authlog', 'syslog auth.log and Linux syslog lines, through ingest', () => logs('loghub/OpenSSH/OpenSSH_2k.log', 'loghub/Linux/Linux_2k.log'), 48 * 1024),
  ingestTarget('auditd', 'Linux auditd logs, through ingest', () =>
    logs('auditd-laurel/fork-sleep-exec.txt', 'auditd-laurel/record-execve-long.txt', 'auditd-laurel/record-perl-reverse-shell.txt', 'auditd-laurel/record-syscall-nullkey.txt', 'auditd-laurel/record-bind-ipv4-bigendian.txt', 'auditd-laurel/record-syscall-key.txt'),
  ),
  ingestTarget('timeline', 'plaso and Timesketch timelines (l2t CSV, TLN, JSON lines, CSV), through ingest', () =>
    logs('plaso/l2tcsv.log', 'plaso/l2ttln.log', 'plaso/json_line.log', 'plaso/dynamic.log', 'plaso/aws_cloudtrail.jsonl', 'timesketch/sigma_events.csv', 'timesketch/sigma_events.jsonl', 'timesketch/evtx_part.csv'),
    undefined,
    // The JSON lines timelines get structure and byte mutations; the CSV and text ones, byte mutations.
    'lines',
  ),
  ingestTarget('memory', 'Volatility 3 text output (a single plugin file), through ingest', () => logs('volatility3/windows.pstree.head20.txt')),
  // Not opted in to structure mutations: the dataset loader keeps an event's attribute strings whole (a dataset is our
  // own normalised format, and a cut would lose evidence), which this target's check, bounding strings, reports.
  ingestTarget('dataset', 'Vitrine dataset JSON and preproc tab-separated logs, through ingest', () => [path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'dataset.json'), path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'preproc.tsv')]),
  {
    name: 'forensic-sigma-rules',
    about: 'a custom Sigma rule file (YAML) through the rule loader `--rules` uses',
    seeds: () =>
      readSeeds([
        ...['rules/identity/okta/okta_password_in_alternateid_field.yml', 'rules/network/zeek/zeek_rdp_public_listener.yml', 'rules/windows/process_creation/proc_creation_win_powershell_base64_frombase64string.yml', 'rules/windows/process_creation/proc_creation_win_lolbin_unregmp2.yml', 'rules/windows/file/file_delete/file_delete_win_delete_own_image.yml'].map((f) => corpusPath('sigma', ...f.split('/'))),
        path.join(REPO_ROOT, 'resources', 'forensic', 'sigma', 'rules-builtin', 'windows', 'correlation', 'openssh_failure_burst.yml'),
        path.join(REPO_ROOT, 'resources', 'forensic', 'sigma', 'rules-builtin', 'windows', 'process', 'proc_ping_sweep_correlation.yml'),
      ]),
    run: loadRuleFile,
    check: checkRules,
    structure: 'yaml',
  },
];
