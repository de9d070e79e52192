// `npm run bench -- forensic-coverage [DIR] [--otrf OTRF] [--set SET]... [--hunting] [--min-level L] [--show-rule TEXT]...`: how much of a public ATT&CK-labelled Windows log collection the
// shipped rules detect. DIR (or $VITRINE_FORENSIC_COVERAGE) holds the collection, kept outside the repository (for example
// mdecrevoisier/EVTX-to-MITRE-Attack: top folders TA00xx-<tactic>, then one folder per technique). Prints, for the files
// the rules were written against (dev) and for the families set aside before writing them (held out), the share of
// files tagged with a technique of their labelled tactic, and every file with no detection with what it holds. Also
// checks the corpus's benign captures for high and critical hits. Skips with a message when DIR is absent.
// --show-rule TEXT (repeatable) prints every event that a rule whose title holds TEXT (any case) matched, in every file,
// unit, dataset and benign capture, with its main fields: the background hits of new rules, read before shipping them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attackLookup } from '../engines/core/attack/lookup.js';
import { analyzeEvents, analyzePaths } from '../engines/forensic/analysis/analyze.js';
import { makeEvent } from '../engines/forensic/analysis/events.fixture.js';
import type { JsonRecord } from '../engines/forensic/event.js';
import type { DetectionSummary } from '../engines/forensic/analysis/detections.js';
import type { Analysis } from '../engines/forensic/analysis/analyze.js';
import { loadSigmaRules, shippedRulesDir, DEFAULT_MIN_LEVEL, DEFAULT_RULE_SETS, SIGMA_LEVELS } from '../engines/forensic/sigma/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(3);
const hunting = args.includes('--hunting');
const otrfAt = args.indexOf('--otrf');
const otrf = otrfAt >= 0 ? args[otrfAt + 1] : undefined;
const levelAt = args.indexOf('--min-level');
/** The lowest level of rule run: the product's default (every level) unless `--min-level` narrows it as an analyst can. */
const minLevel = SIGMA_LEVELS.find((l) => l === (levelAt >= 0 ? args[levelAt + 1] : DEFAULT_MIN_LEVEL));
if (minLevel === undefined) throw new Error(`--min-level takes one of ${SIGMA_LEVELS.join(', ')}`);
/** `--set DIR` (repeatable): a labelled collection, DIR/labels.json naming each unit (an EVTX file, or a folder of EVTX or JSON-lines files) and its tactic ids. */
const setDirs = args.flatMap((a, i) => (a === '--set' && args[i + 1] !== undefined ? [args[i + 1] as string] : []));
/** `--ignore-rule ID` (repeatable): a rule (id or title) whose hits do not count for a labelled set's tactic, for collections whose
 * test harness leaves its own trace in every unit (a rule that fires in nearly every unit, whatever the label). */
const ignoredRules = new Set(args.flatMap((a, i) => (a === '--ignore-rule' && args[i + 1] !== undefined ? [args[i + 1] as string] : [])));
const optionValue = (i: number): boolean =>
  (otrfAt >= 0 && i === otrfAt + 1) || (levelAt >= 0 && i === levelAt + 1) || (i > 0 && (args[i - 1] === '--set' || args[i - 1] === '--ignore-rule' || args[i - 1] === '--show-rule'));
/** --show-rule TEXT: the rules (by a part of their title, any case) whose matched events are printed. */
const shownRules = args.flatMap((a, i) => (a === '--show-rule' && args[i + 1] !== undefined ? [(args[i + 1] as string).toLowerCase()] : []));
const SHOWN_FIELDS = ['Image', 'NewProcessName', 'CommandLine', 'ParentImage', 'ParentProcessName', 'SourceImage', 'TargetImage', 'TargetFilename', 'TargetObject', 'Details', 'SourceIp', 'DestinationPort', 'PipeName', 'QueryName', 'ScriptBlockText', 'Payload'];

/** Prints the events of an analysis matched by a --show-rule rule: unit, rule titles and the event's main fields. */
function showHits(unit: string, a: Analysis): void {
  const detections = a.detections;
  if (shownRules.length === 0 || detections === null) return;
  for (const e of a.events) {
    if (!detections.has(e.eventId)) continue;
    const titles = detections.rulesOf(e.eventId).map((r) => r.title).filter((t) => shownRules.some((x) => t.toLowerCase().includes(x)));
    if (titles.length === 0) continue;
    const attrs = e.attributes as Record<string, unknown>;
    const data = typeof attrs['data'] === 'object' && attrs['data'] !== null ? (attrs['data'] as Record<string, unknown>) : {};
    const fields = SHOWN_FIELDS.filter((k) => data[k] !== undefined).map((k) => `${k}=${String(data[k]).slice(0, 200)}`);
    console.log(`  [shown] ${unit} :: ${titles.join('; ')} :: ${String(attrs['channel'] ?? '?')} ${String(attrs['eventId'] ?? '?')} ${fields.join(' | ')}`);
  }
}

const dir = args.find((a, i) => !a.startsWith('--') && !optionValue(i)) ?? process.env['VITRINE_FORENSIC_COVERAGE'];
const corpora = process.env['VITRINE_CORPORA'] ?? path.resolve(here, '..', '..', 'shared', 'corpora');

/** ATT&CK tactic ids of the collection's folders to the short names a detection may carry (Defense Evasion: v19's two tactics too). */
const TACTIC_OF_FOLDER: Readonly<Record<string, readonly string[]>> = {
  TA0001: ['initial-access'],
  TA0002: ['execution'],
  TA0003: ['persistence'],
  TA0004: ['privilege-escalation'],
  TA0005: ['defense-evasion', 'stealth', 'defense-impairment'],
  TA0006: ['credential-access'],
  TA0007: ['discovery'],
  TA0008: ['lateral-movement'],
  TA0009: ['collection'],
  TA0010: ['exfiltration'],
  TA0011: ['command-and-control'],
  TA0040: ['impact'],
  TA0042: ['resource-development'],
  TA0043: ['reconnaissance'],
};

/** Families (technique folders) whose first hex digit of SHA-256 is below 5 are held out: chosen before any rule was written. */
export function heldOut(family: string): boolean {
  return Number.parseInt(createHash('sha256').update(family).digest('hex').slice(0, 1), 16) < 5;
}

function evtxFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.evtx') && statSync(p).size > 0) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

interface FileResult {
  readonly rel: string;
  readonly family: string;
  readonly tactic: string | null;
  readonly held: boolean;
  readonly detections: number;
  readonly tagged: boolean;
  readonly holds: string;
  readonly high: number;
  /** The tactics the file's detections carry (rule tags and their techniques'), for the files detected without their own. */
  readonly tactics: readonly string[];
}

function tacticsOf(d: DetectionSummary): Set<string> {
  const lookup = attackLookup();
  return new Set([...d.tactics, ...d.techniques.flatMap((t) => lookup.technique(t).tactics)]);
}

const ruleSet = loadSigmaRules({
  sources: [...DEFAULT_RULE_SETS, ...(hunting ? ['rules-threat-hunting'] : [])].map((name) => ({ name, path: path.join(shippedRulesDir(), name) })),
  minLevel,
});

function analyseFile(file: string, root: string): { detections: DetectionSummary[]; holds: string } {
  const a = analyzePaths([file], { evidenceRoot: root, sigma: ruleSet, kind: 'evtx' });
  showHits(path.relative(root, file), a);
  const ids = new Map<string, number>();
  for (const e of a.events) {
    const attrs = e.attributes as Record<string, unknown>;
    const k = `${String(attrs['channel'] ?? '?').replace(/^Microsoft-Windows-/, '')} ${String(attrs['eventId'] ?? '?')}`;
    ids.set(k, (ids.get(k) ?? 0) + 1);
  }
  const holds = [...ids].sort((x, y) => y[1] - x[1]).slice(0, 6).map(([k, n]) => `${k}×${n}`).join(', ') || 'no events';
  return { detections: a.detections?.summary() ?? [], holds };
}

function run(root: string): void {
  const files = evtxFiles(root);
  const results: FileResult[] = [];
  for (const f of files) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    const parts = rel.split('/');
    const m = /^(TA\d{4})/.exec(parts[0] ?? '');
    const tactic = m ? (m[1] as string) : null;
    const family = parts.length > 2 ? `${parts[0]}/${parts[1]}` : rel;
    let detections: DetectionSummary[] = [];
    let holds: string;
    try {
      ({ detections, holds } = analyseFile(f, root));
    } catch (err) {
      holds = `unreadable: ${err instanceof Error ? err.message : String(err)}`;
    }
    const want = tactic !== null ? (TACTIC_OF_FOLDER[tactic] ?? []) : [];
    const tagged = detections.some((d) => [...tacticsOf(d)].some((t) => want.includes(t)));
    const high = detections.filter((d) => d.level === 'high' || d.level === 'critical').length;
    const tactics = [...new Set(detections.flatMap((d) => [...tacticsOf(d)]))].sort();
    results.push({ rel, family, tactic, held: heldOut(family), detections: detections.length, tagged, holds, high, tactics });
  }
  for (const [name, held] of [['dev (rules written against these)', false], ['held out (families not looked at while writing rules)', true]] as const) {
    const set = results.filter((r) => r.held === held);
    const labelled = set.filter((r) => r.tactic !== null);
    const tagged = labelled.filter((r) => r.tagged).length;
    const silent = set.filter((r) => r.detections === 0);
    console.log(`\n${name}: ${set.length} files, ${labelled.length} with a tactic label`);
    console.log(`  tagged with a technique of their tactic: ${tagged}/${labelled.length} = ${labelled.length === 0 ? '-' : ((100 * tagged) / labelled.length).toFixed(1)} %`);
    console.log(`  files with no detection: ${silent.length}`);
    for (const r of silent) console.log(`    - ${r.rel}\n        holds: ${r.holds}`);
    const untagged = labelled.filter((r) => !r.tagged && r.detections > 0);
    if (untagged.length > 0) console.log(`  detected but not with their tactic: ${untagged.length}`);
    for (const r of untagged) console.log(`    - ${r.rel} (${r.detections} rule(s): ${r.tactics.join(', ')})`);
  }
}

function benign(): void {
  const base = path.join(corpora, 'evtx', 'evtx-crate');
  if (!existsSync(base)) {
    console.log('\nbenign captures: corpus absent, skipped');
    return;
  }
  const clean = ['security.evtx', 'system.evtx', 'sysmon.evtx'].map((f) => path.join(base, f)).filter((f) => existsSync(f));
  let high = 0;
  for (const f of clean) {
    const a = analyzePaths([f], { evidenceRoot: base, sigma: ruleSet, kind: 'evtx' });
    showHits(`benign ${path.basename(f)}`, a);
    const hits = (a.detections?.summary() ?? []).filter((d) => d.level === 'high' || d.level === 'critical');
    high += hits.length;
    console.log(`benign ${path.basename(f)}: ${hits.length} high/critical rule(s)${hits.length ? `: ${hits.map((h) => h.title).join('; ')}` : ''}`);
  }
  console.log(`benign captures: ${high} high/critical rule(s) in total`);
}

/** OTRF Security-Datasets host logs (JSON lines as NXLog/Logstash exported them: System fields and EventData side by side, or
 * Winlogbeat 6 documents) as
 * EVTX-like events: EventID, Channel, SourceName, Hostname and @timestamp read, every other field an EventData value. */
const OTRF_META = new Set(['@timestamp', '@version', 'EventID', 'Channel', 'SourceName', 'Hostname', 'host', 'tags', 'port', 'Message', 'EventReceivedTime', 'SourceModuleName', 'SourceModuleType', 'EventTime', 'Keywords', 'Severity', 'SeverityValue', 'EventTypeOrignal', 'Opcode', 'OpcodeValue', 'RecordNumber', 'ProviderGuid', 'ExecutionProcessID', 'ThreadID', 'Version', 'Task', 'Category']);
/** Microsoft Sentinel's own columns (its Event and SecurityEvent tables, rows with a TenantId), not event data. */
const SENTINEL_META = new Set(['TenantId', 'SourceSystem', 'TimeGenerated', 'Computer', 'MG', 'ManagementGroupName', 'Type', '_ResourceId', 'EventSourceName', 'Activity', 'SourceComputerId', 'EventOriginId', 'TimeCollected', 'InstanceId', 'Provider', 'EventLevel', 'EventLevelName', 'Level', 'EventData_dynamic']);

const objectOf = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const textOf = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : typeof objectOf(v)?.['#text'] === 'string' ? (objectOf(v)?.['#text'] as string) : null);

/** An event exported as the XML's JSON form (`{"Event": {"System": {...}, "EventData": {"Data": [{"@Name", "#text"}]}}}`, as
 * Get-WinEvent/ConvertTo-Json or xmltodict write it; UserData's first element's fields read as data), or null for other shapes. */
function eventExportOf(r: Record<string, unknown>): ReturnType<typeof makeEvent> | null {
  const event = objectOf(r['Event']);
  const system = objectOf(event?.['System']);
  if (event === null || system === null) return null;
  const eventId = Number(textOf(system['EventID']));
  const channel = textOf(system['Channel']);
  if (!Number.isFinite(eventId) || channel === null) return null;
  const data: Record<string, string> = {};
  const eventData = objectOf(event['EventData']);
  const items = eventData?.['Data'];
  // unnamed items (classic providers such as MSSQLSERVER write `<Data>text</Data>`) are the field Data, as the EVTX
  // reader names them
  const unnamed: string[] = [];
  for (const item of Array.isArray(items) ? items : items !== undefined ? [items] : []) {
    const o = objectOf(item);
    const name = o?.['@Name'];
    const value = textOf(item);
    if (typeof name === 'string' && value !== null) data[name] = value;
    else if (name === undefined && value !== null) unnamed.push(value);
  }
  if (unnamed.length > 0 && data['Data'] === undefined) data['Data'] = unnamed.join('\n');
  const userData = objectOf(event['UserData']);
  const first = userData !== null ? objectOf(Object.values(userData)[0]) : null;
  for (const [k, v] of Object.entries(first ?? {})) {
    const value = textOf(v);
    if (!k.startsWith('@') && value !== null) data[k] = value;
  }
  const stamp = textOf(objectOf(system['TimeCreated'])?.['@SystemTime']);
  const m = stamp !== null ? /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d{1,3})?/.exec(stamp) : null;
  const time = m ? `${m[1]}T${m[2]}${m[3] ?? ''}Z` : null;
  const provider = textOf(objectOf(system['Provider'])?.['@Name']);
  const attributes: JsonRecord = { eventId, channel, provider, data };
  return makeEvent({ ...(time !== null ? { time } : {}), host: textOf(system['Computer']), action: 'windows.event', object: { type: 'log', name: channel }, attributes });
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function otrfEvents(file: string): ReturnType<typeof makeEvent>[] {
  const out: ReturnType<typeof makeEvent>[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const exported = eventExportOf(r);
    if (exported !== null) {
      out.push(exported);
      continue;
    }
    // The older datasets are Winlogbeat 6 documents: event_id, log_name, source_name, computer_name, event_data {...}.
    const beat = typeof r['log_name'] === 'string' && typeof r['event_data'] === 'object' && r['event_data'] !== null;
    const eventId = Number(beat ? r['event_id'] : r['EventID']);
    const channelRaw = beat ? r['log_name'] : r['Channel'];
    const channel = typeof channelRaw === 'string' ? channelRaw : null;
    if (!Number.isFinite(eventId) || channel === null) continue;
    // Microsoft Sentinel's rows (OTRF's compound datasets): its Event table holds the event data as a JSON text in EventData.
    const sentinel = !beat && typeof r['TenantId'] === 'string';
    const sentinelData = sentinel && typeof r['EventData'] === 'string' && r['EventData'].startsWith('{') ? objectOf(parsedOrNull(r['EventData'])) : null;
    const fields = beat ? (r['event_data'] as Record<string, unknown>) : (sentinelData ?? r);
    const data: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(fields)) if (!OTRF_META.has(k) && !(sentinel && SENTINEL_META.has(k)) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) data[k] = v;
    // Sentinel rows (Event and SecurityEvent tables) name the time TimeGenerated, the host Computer, the provider Provider or EventSourceName.
    const timeRaw = r['@timestamp'] ?? r['TimeGenerated'];
    const time = typeof timeRaw === 'string' ? timeRaw : null;
    const hostRaw = beat ? r['computer_name'] : (r['Hostname'] ?? r['Computer']);
    const host = typeof hostRaw === 'string' ? hostRaw : null;
    const providerRaw = beat ? r['source_name'] : (r['SourceName'] ?? r['Provider'] ?? r['EventSourceName']);
    const attributes: JsonRecord = { eventId, channel, provider: typeof providerRaw === 'string' ? providerRaw : null, data };
    out.push(makeEvent({ ...(time !== null ? { time } : {}), host, action: 'windows.event', object: { type: 'log', name: channel }, attributes }));
  }
  return out;
}

/** Share of OTRF datasets (folders `<name>.d` below DIR, labels from DIR/labels.json: name → ATT&CK tactic ids of its metadata) tagged with a technique of one of their tactics. */
function runOtrf(root: string): void {
  const labels = JSON.parse(readFileSync(path.join(root, 'labels.json'), 'utf8')) as Record<string, { tactics: string[]; title?: string }>;
  const sets: { name: string; files: string[] }[] = [];
  for (const tactic of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const d of readdirSync(path.join(root, tactic.name), { withFileTypes: true })) {
      if (!d.isDirectory() || !d.name.endsWith('.d')) continue;
      const files: string[] = [];
      const walk = (p: string): void => {
        for (const e of readdirSync(p, { withFileTypes: true })) {
          const q = path.join(p, e.name);
          if (e.isDirectory()) walk(q);
          else if (e.name.endsWith('.json')) files.push(q);
        }
      };
      walk(path.join(root, tactic.name, d.name));
      sets.push({ name: d.name.slice(0, -2), files });
    }
  }
  let labelled = 0;
  let tagged = 0;
  const silent: string[] = [];
  const untagged: string[] = [];
  for (const s of sets.sort((a, b) => a.name.localeCompare(b.name))) {
    const label = labels[s.name];
    const events = s.files.flatMap(otrfEvents);
    const a = analyzeEvents(events, { sigma: ruleSet });
    showHits(`OTRF ${s.name}`, a);
    const detections = a.detections?.summary() ?? [];
    if (label === undefined || label.tactics.length === 0) continue;
    labelled++;
    const want = label.tactics.flatMap((t) => TACTIC_OF_FOLDER[t] ?? []);
    const ok = detections.some((d) => [...tacticsOf(d)].some((t) => want.includes(t)));
    if (ok) tagged++;
    else if (detections.length === 0) silent.push(`${s.name} (${events.length} events, ${label.tactics.join('/')})`);
    else untagged.push(`${s.name} (${detections.length} rule(s): ${[...new Set(detections.flatMap((d) => [...tacticsOf(d)]))].sort().join(', ')}; labelled ${label.tactics.join('/')})`);
  }
  console.log(`\nOTRF Security-Datasets (not looked at while writing rules): ${sets.length} host datasets, ${labelled} with a tactic label`);
  console.log(`  tagged with a technique of their tactic: ${tagged}/${labelled} = ${labelled === 0 ? '-' : ((100 * tagged) / labelled).toFixed(1)} %`);
  console.log(`  datasets with no detection: ${silent.length}`);
  for (const x of silent) console.log(`    - ${x}`);
  console.log(`  detected but not with their tactic: ${untagged.length}`);
  for (const x of untagged) console.log(`    - ${x}`);
}

/** Files below a folder, recursively, whose name passes `keep`. */
function filesBelow(root: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && keep(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** A labelled collection: DIR/labels.json maps each unit (a path below DIR: one EVTX file, or a folder whose EVTX files, or else
 * whose JSON-lines exports, are read together as one host's logs) to `{ tactics: ['TA00xx', ...], title? }`. A unit with no
 * tactic is counted apart (it holds no labelled attack). Prints the share tagged with a technique of one of its tactics, each
 * unit with no detection and what it holds, the units detected without their tactic, and the high/critical rules per unit. */
function runLabelled(root: string): void {
  const labels = JSON.parse(readFileSync(path.join(root, 'labels.json'), 'utf8')) as Record<string, { tactics: string[]; title?: string }>;
  let labelled = 0;
  let tagged = 0;
  const lines: string[] = [];
  const silent: string[] = [];
  const untagged: string[] = [];
  const unitsOfRule = new Map<string, number>();
  for (const [unit, label] of Object.entries(labels).sort((a, b) => a[0].localeCompare(b[0]))) {
    const at = path.join(root, unit);
    if (!existsSync(at)) {
      silent.push(`${unit}: absent`);
      continue;
    }
    const isDir = statSync(at).isDirectory();
    const evtx = isDir ? filesBelow(at, (n) => n.toLowerCase().endsWith('.evtx')).filter((f) => statSync(f).size > 0) : [at];
    let detections: DetectionSummary[];
    let holds: string;
    if (evtx.length > 0) {
      const a = analyzePaths(evtx, { evidenceRoot: root, sigma: ruleSet, kind: 'evtx' });
      showHits(unit, a);
      detections = a.detections?.summary() ?? [];
      const ids = new Map<string, number>();
      for (const e of a.events) {
        const attrs = e.attributes as Record<string, unknown>;
        const k = `${String(attrs['channel'] ?? '?').replace(/^Microsoft-Windows-/, '')} ${String(attrs['eventId'] ?? '?')}`;
        ids.set(k, (ids.get(k) ?? 0) + 1);
      }
      holds = [...ids].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([k, n]) => `${k}×${n}`).join(', ') || 'no events';
    } else {
      const events = filesBelow(at, (n) => /\.(json|txt|log)$/i.test(n)).flatMap(otrfEvents);
      const a = analyzeEvents(events, { sigma: ruleSet });
      showHits(unit, a);
      detections = a.detections?.summary() ?? [];
      holds = `${events.length} JSON events`;
    }
    for (const d of detections) unitsOfRule.set(`${d.title} (${d.level})`, (unitsOfRule.get(`${d.title} (${d.level})`) ?? 0) + 1);
    detections = detections.filter((d) => !ignoredRules.has(d.ruleId) && !ignoredRules.has(d.title));
    const tactics = [...new Set(detections.flatMap((d) => [...tacticsOf(d)]))].sort();
    const high = detections.filter((d) => d.level === 'high' || d.level === 'critical').map((d) => d.title);
    lines.push(`    ${unit}: ${detections.length} rule(s), ${high.length} high/critical${high.length ? ` (${high.join('; ')})` : ''}`);
    if (label.tactics.length === 0) {
      if (detections.length === 0) silent.push(`${unit} (no attack label) holds: ${holds}`);
      continue;
    }
    labelled++;
    const want = label.tactics.flatMap((t) => TACTIC_OF_FOLDER[t] ?? []);
    if (detections.some((d) => [...tacticsOf(d)].some((t) => want.includes(t)))) tagged++;
    else if (detections.length === 0) silent.push(`${unit} (${label.tactics.join('/')}) holds: ${holds}`);
    else untagged.push(`${unit} (${detections.length} rule(s): ${tactics.join(', ')}; labelled ${label.tactics.join('/')})`);
  }
  console.log(`\n${root}: ${Object.keys(labels).length} units, ${labelled} with a tactic label${ignoredRules.size > 0 ? ` (hits of ${[...ignoredRules].join('; ')} not counted)` : ''}`);
  console.log(`  tagged with a technique of their tactic: ${tagged}/${labelled} = ${labelled === 0 ? '-' : ((100 * tagged) / labelled).toFixed(1)} %`);
  console.log(`  units with no detection: ${silent.length}`);
  for (const x of silent) console.log(`    - ${x}`);
  console.log(`  detected but not with their tactic: ${untagged.length}`);
  for (const x of untagged) console.log(`    - ${x}`);
  const units = Object.keys(labels).length;
  const common = [...unitsOfRule].filter(([, n]) => n >= Math.max(3, units / 4)).sort((a, b) => b[1] - a[1]);
  if (common.length > 0) console.log(`  rules hitting a quarter of the units or more (background or harness traces?):`);
  for (const [rule, n] of common) console.log(`    ${n}/${units} ${rule}`);
  console.log('  per unit:');
  for (const x of lines) console.log(x);
}

console.log(`forensic-coverage: ${ruleSet.stats.loaded} rules (${[...DEFAULT_RULE_SETS, ...(hunting ? ['rules-threat-hunting'] : [])].join(', ')}, ${minLevel === 'informational' ? 'every level' : `level ${minLevel} and up`})`);
if (dir === undefined || !existsSync(dir)) {
  if (setDirs.length === 0) console.log('forensic-coverage: no collection given (pass a folder or set VITRINE_FORENSIC_COVERAGE; see docs/forensic-sigma.md); coverage skipped');
} else run(dir);
if (otrf !== undefined && existsSync(otrf)) runOtrf(otrf);
for (const d of setDirs) {
  if (existsSync(path.join(d, 'labels.json'))) runLabelled(d);
  else console.log(`forensic-coverage: ${d} has no labels.json; skipped`);
}
benign();
