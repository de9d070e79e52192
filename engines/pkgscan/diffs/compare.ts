// The comparison of two analysed releases of one package: risk, capabilities, findings by (code, file), files, people. Pure: no store, no clock.
import type { DiffFileChange, DiffPeople, DiffRelease, ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import type { ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import type { Person } from '../package/types.js';
import { sortFindings } from '../scans/verdict.js';
import type { PackageAnalysis } from '../scans/types.js';
import { BEHAVIOUR_CATEGORIES as BEHAVIOUR, INSTALL_HOOKS, SEVERITIES, SOURCE_INSTALL_HOOKS } from '../vocabulary.js';

/** Most entries a file or finding list of a stored diff keeps (the counts stay exact). */
export const MAX_DIFF_LIST = 2000;

/** Finding categories that describe what the code does (the rest describe the archive, metadata or tools). */
const BEHAVIOUR_CATEGORIES: ReadonlySet<string> = new Set(BEHAVIOUR);

/** Native code by extension: the inventory keeps no content type, and these are what a package loads or runs. */
const BINARY_EXTENSION = /\.(node|so(\.\d+)*|dll|exe|dylib|pyd|bin|elf|com|scr|msi|jar|wasm)$/i;


export interface Thresholds {
  readonly environment: string;
  readonly warn_risk: number;
  readonly block_risk: number;
}

export interface CompareInput {
  readonly id: string;
  readonly from: PackageAnalysis;
  readonly to: PackageAnalysis;
  readonly analyzerVersion: string;
  readonly thresholds: Thresholds;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly durationMs: number;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const sevAtLeast = (s: Severity, min: Severity): boolean => SEVERITIES.indexOf(s) >= SEVERITIES.indexOf(min);
const cap = <T>(xs: readonly T[]): T[] => xs.slice(0, MAX_DIFF_LIST);

function worst(findings: readonly ScanFinding[]): Severity {
  let s: Severity = 'info';
  for (const f of findings) if (SEVERITIES.indexOf(f.severity) > SEVERITIES.indexOf(s)) s = f.severity;
  return s;
}

function installScripts(a: PackageAnalysis): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of SOURCE_INSTALL_HOOKS) if (a.metadata.scripts[h] !== undefined) out[h] = a.metadata.scripts[h];
  return out;
}

function side(a: PackageAnalysis): DiffRelease {
  return {
    version: a.version,
    filename: a.filename,
    sha256: a.sha256,
    risk_score: round3(a.risk.score),
    severity: worst(a.findings),
    findings_count: a.findings.length,
    files_total: a.files_total,
    complete: a.complete,
    install_scripts: installScripts(a),
  };
}

const pairKey = (f: ScanFinding): string => `${f.code}\u0000${f.file ?? ''}`;

/** Files that run at install time: what the install scripts name, node-gyp's binding.gyp, setup.py, and `.pth` files (run at every interpreter start). */
export function installTimeFiles(a: PackageAnalysis): string[] {
  const paths = new Set(a.files.map((f) => f.path));
  const out = new Set<string>();
  for (const cmd of Object.values(installScripts(a))) {
    for (const raw of cmd.split(/[\s;&|<>()"'`=]+/)) {
      const t = raw.replace(/^\.\//, '');
      if (t !== '' && paths.has(t)) out.add(t);
    }
  }
  for (const p of paths) {
    const base = p.split('/').pop() ?? p;
    if (base.toLowerCase().endsWith('.pth')) out.add(p);
    if (a.ecosystem === 'pypi' && (p === 'setup.py' || base === 'setup.py') && p.split('/').length <= 2) out.add(p);
    if (a.ecosystem === 'npm' && p === 'binding.gyp') out.add(p);
  }
  return [...out].sort();
}

function personText(p: Person): string | null {
  const s = [p.name?.trim(), p.email !== undefined && p.email.trim() !== '' ? `<${p.email.trim()}>` : undefined].filter((x) => x !== undefined && x !== '').join(' ');
  return s === '' ? null : s;
}

function personKey(p: Person): string | null {
  const e = p.email?.trim().toLowerCase();
  if (e !== undefined && e !== '') return `e:${e}`;
  const n = p.name?.trim().toLowerCase();
  return n !== undefined && n !== '' ? `n:${n}` : null;
}

/** Everyone declared: the package's maintainers and author, the registry's maintainers and publisher. */
function people(a: PackageAnalysis): Map<string, string> {
  const all: Person[] = [...a.metadata.maintainers, ...(a.metadata.author !== undefined ? [a.metadata.author] : []), ...(a.registry?.maintainers ?? []), ...(a.registry?.publisher !== undefined ? [a.registry.publisher] : [])];
  const out = new Map<string, string>();
  for (const p of all) {
    const k = personKey(p);
    const t = personText(p);
    if (k !== null && t !== null && !out.has(k)) out.set(k, t);
  }
  return out;
}

function comparePeople(from: PackageAnalysis, to: PackageAnalysis): DiffPeople {
  const a = people(from);
  const b = people(to);
  return {
    from: [...a.values()],
    to: [...b.values()],
    added: [...b].filter(([k]) => !a.has(k)).map(([, v]) => v),
    removed: [...a].filter(([k]) => !b.has(k)).map(([, v]) => v),
  };
}

function compareFiles(from: PackageAnalysis, to: PackageAnalysis): ReleaseDiff['files'] {
  const before = new Map(from.files.map((f) => [f.path, f]));
  const after = new Map(to.files.map((f) => [f.path, f]));
  const added: DiffFileChange[] = [];
  const changed: DiffFileChange[] = [];
  const removed: DiffFileChange[] = [];
  const newExec: string[] = [];
  const newBin: string[] = [];
  let unchanged = 0;
  for (const f of to.files) {
    const old = before.get(f.path);
    const entry = { path: f.path, size: f.size, sha256: f.sha256, executable: f.executable };
    if (old === undefined) added.push(entry);
    else if (old.sha256 !== f.sha256 || old.size !== f.size) changed.push({ ...entry, previous: { size: old.size, sha256: old.sha256 } });
    else unchanged++;
    if (f.executable && (old === undefined || !old.executable)) newExec.push(f.path);
    if (BINARY_EXTENSION.test(f.path) && (old === undefined || old.sha256 !== f.sha256)) newBin.push(f.path);
  }
  for (const f of from.files) if (!after.has(f.path)) removed.push({ path: f.path, size: f.size, sha256: f.sha256, executable: f.executable });
  const itFrom = installTimeFiles(from);
  const itTo = installTimeFiles(to);
  const changedPaths = new Set(changed.map((c) => c.path));
  const lists = [added, removed, changed, newExec, newBin];
  return {
    added: cap(added),
    removed: cap(removed),
    changed: cap(changed),
    unchanged,
    new_executables: cap(newExec),
    new_binaries: cap(newBin),
    install_time: { from: itFrom, to: itTo, added: itTo.filter((p) => !itFrom.includes(p)), changed: itTo.filter((p) => itFrom.includes(p) && changedPaths.has(p)) },
    truncated: lists.some((l) => l.length > MAX_DIFF_LIST) || from.files_total > from.files.length || to.files_total > to.files.length,
  };
}

const personOrNull = (p: Person | undefined): string | null => (p === undefined ? null : personText(p));

/** Compares the older release (from) with the newer one (to). */
export function compareReleases(input: CompareInput): ReleaseDiff {
  const { from, to, thresholds: t } = input;
  const fromKeys = new Set(from.findings.map(pairKey));
  const toKeys = new Set(to.findings.map(pairKey));
  const newFindings = sortFindings(to.findings.filter((f) => !fromKeys.has(pairKey(f))));
  const goneFindings = sortFindings(from.findings.filter((f) => !toKeys.has(pairKey(f))));
  const unchanged = [...toKeys].filter((k) => fromKeys.has(k)).length;
  const catsOf = (a: PackageAnalysis): Set<string> => new Set(a.findings.map((f) => f.category).filter((c) => BEHAVIOUR_CATEGORIES.has(c)));
  const codesOf = (a: PackageAnalysis): Set<string> => new Set(a.findings.map((f) => f.code));
  const [cf, ct, kf, kt] = [catsOf(from), catsOf(to), codesOf(from), codesOf(to)];
  const dimensions: Record<string, { from: number; to: number }> = {};
  for (const k of [...new Set([...Object.keys(from.risk.dimensions), ...Object.keys(to.risk.dimensions)])].sort())
    dimensions[k] = { from: round3(from.risk.dimensions[k] ?? 0), to: round3(to.risk.dimensions[k] ?? 0) };
  const rf = round3(from.risk.score);
  const rt = round3(to.risk.score);
  const reasons: string[] = [];
  if (rf < t.warn_risk && rt >= t.warn_risk) reasons.push('risk_crossed_warn');
  if (rf < t.block_risk && rt >= t.block_risk) reasons.push('risk_crossed_block');
  if (newFindings.some((f) => sevAtLeast(f.severity, 'high'))) reasons.push('new_high_finding');
  // A release that starts running code at install is the commonest turn to malice, whatever the rules make of the code.
  if (INSTALL_HOOKS.some((h) => to.metadata.scripts[h] !== undefined && from.metadata.scripts[h] === undefined)) reasons.push('install_hook_gained');
  const publisherFrom = personOrNull(from.registry?.publisher);
  const publisherTo = personOrNull(to.registry?.publisher);
  return {
    id: input.id,
    ecosystem: to.ecosystem,
    name: to.name,
    from_version: from.version,
    to_version: to.version,
    analyzer_version: input.analyzerVersion,
    escalated: reasons.length > 0,
    escalation_reasons: reasons,
    thresholds: t,
    incomplete: !from.complete || !to.complete || [...from.runs, ...to.runs].some((r) => r.status === 'failed' || r.status === 'timed_out'),
    from: side(from),
    to: side(to),
    risk: { from: rf, to: rt, delta: round3(rt - rf) },
    dimensions,
    capabilities: {
      gained: [...ct].filter((c) => !cf.has(c)).sort(),
      lost: [...cf].filter((c) => !ct.has(c)).sort(),
      codes_gained: [...kt].filter((c) => !kf.has(c)).sort(),
      codes_lost: [...kf].filter((c) => !kt.has(c)).sort(),
    },
    findings: { new: cap(newFindings), gone: cap(goneFindings), unchanged },
    files: compareFiles(from, to),
    maintainers: comparePeople(from, to),
    publisher: { from: publisherFrom, to: publisherTo, changed: publisherFrom !== null && publisherTo !== null && publisherFrom.toLowerCase() !== publisherTo.toLowerCase() },
    created_at: input.createdAt,
    created_by: input.createdBy,
    duration_ms: input.durationMs,
  };
}
