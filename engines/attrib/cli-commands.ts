// The commands of `attrib` (cli.ts parses the options and answers --help and --version, then loads this module).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { serveFlags, UsageError, type CliResult } from '../core/cli.js';
import type { Values } from './cli.js';
import { DEFAULT_PORT } from './cli-meta.js';
import { serveWithStore } from '../core/http/server.js';
import { VitrineError } from '../core/errors.js';
import { writeOutputFile } from '../core/output-file.js';
import { terminalValue } from '../core/terminal-text.js';
import { analyzeScenario } from './ach/engine.js';
import { parseOverride, readScenarioFile, ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { assessmentText } from './ach/text.js';
import {
  attribute,
  cluster,
  clustersToCypher,
  extract,
  extractionToStix,
  loadAttackFile,
  loadCalibration,
  loadClassifier,
  loadKb,
  loadLabelledSentences,
  MAX_CLUSTER_REPORTS,
  toNavigatorLayer,
  trainAndEvaluate,
  trainingExamples,
  type AttackKb,
  type LabelledSentence,
  type TechniqueClassifier,
} from './analysis.js';
import { serializeKb } from './kb/build.js';
import { compareVersions, installedKbPath, refreshAttackLookup, SHIPPED_ATTACK_VERSION } from '../core/attack/lookup.js';
import { parseKnownInfrastructure, parsePeriod } from './attribute/request.js';
import { readJsonFile } from './kb/kb.js';
import type { Attribution } from '../core/contracts/attrib.js';
import { allowedHostsFromEnv, createStandaloneApp, serveAllowedHosts, techniqueLookup } from './http.js';
import { DEFAULT_CLUSTER_THRESHOLD, DEFAULT_SHORTLIST, DEFAULT_THRESHOLD, VERSION } from './limits.js';
import { attribService } from './service.js';

/** Who makes overrides from the command line: the login name. */
function analystName(): string {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // No passwd entry (some containers): fall back to the environment.
  }
  return process.env['USER'] ?? process.env['USERNAME'] ?? 'analyst';
}

export function achCommand(positionals: readonly string[], values: Values, now: Date): CliResult {
  if (positionals.length !== 1) throw new UsageError('ach takes one scenario file or bundled scenario name');
  if (values.json === true && values.stix === true) throw new UsageError('give --json or --stix, not both');
  const arg = positionals[0]!;
  const library = ScenarioLibrary.fromEnvironment();
  const bundled = /^[a-z0-9][a-z0-9-]{0,63}$/.test(arg) ? library.get(arg) : undefined;
  let scenario;
  if (bundled && !existsSync(arg)) scenario = bundled;
  else if (existsSync(arg) || arg.endsWith('.json')) scenario = readScenarioFile(path.resolve(arg));
  else throw new UsageError(`no such scenario file or bundled scenario (bundled: ${library.names().join(', ') || 'none'})`);
  const overrides = (values.override ?? []).map((o, i) => parseOverride(o, i + 1));
  const assessment = analyzeScenario(scenario, { overrides, analyst: analystName(), now });
  if (values.stix === true) {
    // Attack patterns are named from the knowledge base when it loads; without one their ids are their names.
    let kb: AttackKb | undefined;
    try {
      kb = kbOf(values);
    } catch {
      kb = undefined;
    }
    return { code: 0, stdout: `${JSON.stringify(assessmentToStix(assessment, kb ? { technique: techniqueLookup(kb) } : {}), null, 2)}\n`, stderr: '' };
  }
  if (values.json === true) return { code: 0, stdout: `${JSON.stringify(assessment, null, 2)}\n`, stderr: '' };
  return { code: 0, stdout: assessmentText(assessment), stderr: '' };
}

export function demoCommand(positionals: readonly string[], now: Date): CliResult {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments');
  const library = ScenarioLibrary.fromEnvironment();
  const names = library.names();
  if (names.length === 0) return { code: 1, stdout: '', stderr: 'attrib: no scenarios found (check ATTR_FIXTURES)\n' };
  const out: string[] = [`attrib ${VERSION} demo: ACH on ${names.length} ${library.source} scenario(s)`, ''];
  for (const name of names) {
    const a = analyzeScenario(library.get(name)!, { now });
    const bundle = assessmentToStix(a);
    out.push(`${name}: ${terminalValue(a.scenario.title)}`, `  leader ${a.leader} (${a.strength}, margin ${a.margin}); STIX bundle of ${bundle.objects.length} objects`, `  ${a.conclusion}`, '');
  }
  out.push('Try: attrib ach ceremony-wiper --override E3:H2=I, or attrib ach <name> --stix');
  return { code: 0, stdout: `${out.join('\n')}\n`, stderr: '' };
}

/** Largest report file read. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** A report's text: the file as UTF-8, or the `text` / `signal` field of a JSON file (TRAM .mjson). Errors never name the path. */
export function readReportText(file: string): string {
  let raw: string;
  try {
    if (statSync(file).size > MAX_REPORT_BYTES) throw new VitrineError('payload_too_large', 'the report file is too large');
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('not_found', 'the report file cannot be read');
  }
  if (/\.(m?json)$/i.test(file)) {
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      const text = v['text'] ?? v['signal'];
      if (typeof text === 'string') return text;
    } catch {
      // Not JSON after all: the bytes are the text.
    }
  }
  return raw;
}

function fraction(text: string | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(v >= 0 && v <= 1)) throw new UsageError(`${what} must be a number from 0 to 1`);
  return v;
}

function kbOf(values: Values, attack?: string): AttackKb {
  return loadKb(attack !== undefined ? path.resolve(attack) : values.kb !== undefined ? path.resolve(values.kb) : undefined);
}

function classifierOf(values: Values): TechniqueClassifier | undefined {
  return values.classifier === undefined ? undefined : loadClassifier(path.resolve(values.classifier));
}

function writeOut(file: string, text: string, what: string): void {
  writeOutputFile(path.resolve(file), text, () => new UsageError(`the ${what} file cannot be written`));
}

const json = (v: unknown): CliResult => ({ code: 0, stdout: `${JSON.stringify(v, null, 2)}\n`, stderr: '' });

export function extractCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 1) throw new UsageError('extract takes one report file');
  if (values.navigator === true && values.stix === true) throw new UsageError('give --navigator or --stix, not both');
  const file = path.resolve(positionals[0]!);
  const kb = kbOf(values);
  const classifier = classifierOf(values);
  const e = extract(readReportText(file), kb, classifier ? { classifier } : {});
  const name = path.basename(file);
  if (values.navigator === true) return json(toNavigatorLayer(e, kb, name));
  if (values.stix === true) return json(extractionToStix(e, kb, { name }));
  return json(e);
}

export function clusterCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 1) throw new UsageError('cluster takes one directory of reports');
  const threshold = fraction(values.threshold, '--threshold', DEFAULT_CLUSTER_THRESHOLD);
  const dir = path.resolve(positionals[0]!);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => !f.startsWith('.') && statSync(path.join(dir, f)).isFile())
      .sort();
  } catch {
    throw new VitrineError('not_found', 'the report directory cannot be read');
  }
  if (names.length > MAX_CLUSTER_REPORTS) throw new VitrineError('validation_failed', `at most ${MAX_CLUSTER_REPORTS} reports can be clustered at once`);
  const kb = kbOf(values);
  const classifier = classifierOf(values);
  const reports = names.map((name) => ({ name, text: readReportText(path.join(dir, name)) }));
  const clusters = cluster(reports, kb, { threshold, ...(classifier ? { classifier } : {}) });
  if (values.cypher !== undefined) writeOut(values.cypher, clustersToCypher(clusters), 'Cypher');
  return json({ threshold, reports: names.length, clusters });
}

export function attributeCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 1) throw new UsageError('attribute takes one report file');
  if (values.attack === undefined && values.kb === undefined && !process.env['ATTR_KB']) throw new UsageError('attribute needs --attack knowledge-base.json');
  let shortlist = DEFAULT_SHORTLIST;
  if (values.shortlist !== undefined) {
    if (!/^\d{1,3}$/.test(values.shortlist) || Number(values.shortlist) < 1) throw new UsageError('--shortlist must be an integer from 1 to 999');
    shortlist = Number(values.shortlist);
  }
  const kb = kbOf(values, values.attack);
  const classifier = classifierOf(values);
  const calibration = values.calibration === undefined ? undefined : loadCalibration(path.resolve(values.calibration));
  const period = values.period === undefined ? undefined : parsePeriod(values.period);
  const knownInfrastructure = values['known-infrastructure'] === undefined ? undefined : parseKnownInfrastructure(readJsonFile(path.resolve(values['known-infrastructure']), 'known infrastructure', 16 * 1024 * 1024));
  const a = attribute(readReportText(path.resolve(positionals[0]!)), kb, {
    shortlist,
    ...(classifier ? { classifier } : {}),
    ...(calibration ? { calibration } : {}),
    ...(period ? { period } : {}),
    ...(knownInfrastructure ? { knownInfrastructure } : {}),
  });
  if (values.json === true) return json(a);
  return { code: 0, stdout: attributionText(a), stderr: '' };
}

/** The attribution as text: each group's score, then one indented line per reason (what the part adds, and what it rests on). */
export function attributionText(a: Attribution): string {
  const lines = [
    `Techniques of the report: ${a.techniques.length} (${a.unmatched_techniques.length} used by no group)${a.software && a.software.length > 0 ? `; software: ${a.software.map(terminalValue).join(' ')}` : ''}`,
    `Shortlist of ${a.shortlist.length} of ${a.groups_considered} groups (${a.calibrated ? 'calibrated probabilities' : "probability = the group's share of the shortlist's total score"}):`,
  ];
  for (const c of a.shortlist) {
    lines.push(`  ${c.rank}. ${terminalValue(c.id)} ${terminalValue(c.name)}: score ${c.score.toFixed(3)}, similarity ${c.similarity.toFixed(3)}, probability ${(c.probability * 100).toFixed(1)}%`);
    for (const r of c.reasons ?? []) lines.push(`       ${`+${r.contribution.toFixed(3)}`.padStart(7)} ${r.kind.padEnd(14)} ${terminalValue(r.detail)}`);
  }
  lines.push(`Method: ${a.method}`, ...a.warnings.map((w) => `Note: ${terminalValue(w)}`));
  return `${lines.join('\n')}\n`;
}

export function trainCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 0) throw new UsageError('train-classifier takes no positional arguments');
  if (values.attack === undefined) throw new UsageError('train-classifier needs --attack knowledge-base.json');
  const threshold = fraction(values.threshold, '--threshold', DEFAULT_THRESHOLD);
  const kb = kbOf(values, values.attack);
  const labelled: LabelledSentence[] = values['ttp-labels'] === undefined ? [] : loadLabelledSentences(path.resolve(values['ttp-labels']));
  // The KB's procedure texts plus the labelled sentences; a fifth of each label is held out (seeded) and measured.
  const examples = trainingExamples(kb, labelled);
  const sources = ['attack-procedures', ...(labelled.length > 0 ? ['ttp-labels'] : [])];
  const { model, evaluation, train_examples } = trainAndEvaluate(examples, { threshold }, sources);
  const out = values.out ?? 'attrib-classifier.json';
  writeOut(out, `${JSON.stringify({ ...model.toJson(), evaluation })}\n`, 'model');
  return json({ model: path.basename(out), labels: model.labels.length, trained_on: train_examples, held_out: evaluation.examples, evaluation });
}

export function loadAttackCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 1) throw new UsageError('load-attack takes one ATT&CK STIX bundle');
  const kb = loadAttackFile(path.resolve(positionals[0]!));
  const text = serializeKb(kb.data);
  if (values.install !== true || values.out !== undefined) writeOut(values.out ?? 'attack_kb.json', text, 'knowledge base');
  const out = values.install === true && values.out === undefined ? {} : { out: path.basename(values.out ?? 'attack_kb.json') };
  if (values.install !== true) return json({ ...out, metadata: kb.data.metadata });
  return json({ ...out, installed: installKb(kb, text), metadata: kb.data.metadata });
}

/**
 * Puts the knowledge base where every service's ATT&CK lookup and attrib's default knowledge base read it
 * (`attack/attack-kb.json` in the data folder). Only an Enterprise release not older than the shipped one: an ICS or
 * Mobile knowledge base, or an older release, would rename techniques under every service.
 */
function installKb(kb: AttackKb, text: string): string {
  const ids = kb.data.techniques.map((t) => t.id);
  const enterprise = ids.filter((id) => /^T1\d{3}/.test(id)).length;
  if (enterprise === 0 || enterprise < ids.length * 0.9) throw new UsageError('only an Enterprise ATT&CK knowledge base is installed for every service (this one is ICS, Mobile or mixed); use --out and --kb instead');
  const version = kb.data.metadata.attack_version;
  if (version !== null && compareVersions(version, SHIPPED_ATTACK_VERSION) < 0) throw new UsageError(`ATT&CK ${version} is older than the shipped ${SHIPPED_ATTACK_VERSION}; use --out and --kb instead`);
  const file = installedKbPath();
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    throw new VitrineError('internal', 'the knowledge base cannot be written into the data folder');
  }
  refreshAttackLookup();
  return path.join('attack', path.basename(file));
}

export async function serveCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  const flags = serveFlags(positionals, values, DEFAULT_PORT);
  const fromEnv = allowedHostsFromEnv();
  await serveWithStore({
    service: attribService,
    home: process.env['VITRINE_HOME'],
    tool: 'attrib',
    version: VERSION,
    ...flags,
    authenticated: (process.env['ATTR_API_TOKEN'] ?? '') !== '',
    // ATTR_ALLOWED_HOSTS replaces the loopback names; the bound name stays allowed.
    createApp: (base) => createStandaloneApp({ ...base, ...(values.kb !== undefined ? { kbPath: path.resolve(values.kb) } : {}), allowedHosts: serveAllowedHosts(fromEnv, base.allowedHosts, values.host ?? '127.0.0.1') }),
    banner: (url) => `(TAXII 2.1 at ${url}/taxii2/${process.env['ATTR_API_DOCS'] === '1' ? `, documentation at ${url}/docs/` : ''})`,
  });
  return { code: 0, stdout: '', stderr: '' };
}
