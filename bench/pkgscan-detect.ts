// `npm run bench -- pkgscan-detect [--verbose] [--devset DIR] [--dump FILE.jsonl] [--show-held-out]`: detection of the package analyzers, judged by the verdict's
// `assessment` (malicious or suspicious = flagged), per ecosystem, on the shared corpus and on a development set split by
// package family into a tuning part and a held-out part (a family never sits on both sides).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScanAssessment } from '../engines/core/contracts/pkgscan.js';
import { assessAnalysis } from '../engines/pkgscan/analyzers/assessment.js';
import { runAnalyzers, type AnalysisResult } from '../engines/pkgscan/analyzers/risk.js';
import { openRelease } from '../engines/pkgscan/package/open.js';
import type { ScanEcosystem } from '../engines/pkgscan/package/types.js';
import { corpusPath, REPO_ROOT } from '../test/corpora.js';

const verbose = process.argv.includes('--verbose');
const devIdx = process.argv.indexOf('--devset');
const devsetDir = devIdx > 0 ? (process.argv[devIdx + 1] ?? '') : (process.env['PKGSCAN_DEVSET'] ?? '/tmp/pkgscan-devset');
const resourcesDir = path.join(REPO_ROOT, 'resources');
const dumpIdx = process.argv.indexOf('--dump');
const dumpFile = dumpIdx > 0 ? (process.argv[dumpIdx + 1] ?? '') : '';
/** The held-out side's archives are listed (and dumped) only when asked: tuning reads the tuning side alone. */
const showHeldOut = process.argv.includes('--show-held-out');

interface Sample {
  readonly set: 'corpus' | 'devset';
  readonly file: string;
  readonly ecosystem: ScanEcosystem;
  readonly label: 'malicious' | 'benign';
  /** Releases of one family never sit on both sides of the split. */
  readonly family: string;
}

interface Judged extends Sample {
  readonly assessment: ScanAssessment;
  readonly result: AnalysisResult;
  readonly ms: number;
}

/** The corpus's ground truth; a malicious family is its note (one campaign, many names), a benign one its name. */
function corpusSamples(): Sample[] {
  const dir = corpusPath('packages');
  const truth = JSON.parse(readFileSync(path.join(dir, 'GROUND_TRUTH.json'), 'utf8')) as { files: { file: string; ecosystem: ScanEcosystem; name: string; label: 'malicious' | 'benign'; note?: string }[] };
  return truth.files.map((e) => ({ set: 'corpus' as const, file: path.join(dir, e.file), ecosystem: e.ecosystem, label: e.label, family: e.label === 'malicious' && e.note !== undefined ? e.note.replace(/\d+(\.\d+)*/g, '#') : `${e.ecosystem}:${e.name}` }));
}

/** `<devset>/{benign,malicious}/{npm,pypi}/*` (built by `npm run bench -- pkgscan-detect-devset`) and `<devset>/npm/*.tgz` (benign npm packs); a family is the package name. */
function devsetSamples(): Sample[] {
  const out: Sample[] = [];
  // the same archive in both folders (older layout and newer) is one sample
  const seen = new Set<string>();
  const add = (dir: string, label: 'malicious' | 'benign', ecosystem: ScanEcosystem): void => {
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir).filter((x) => /\.(tgz|tar\.gz|whl|zip)$/.test(x)).sort()) {
      if (seen.has(`${ecosystem}:${f}`)) continue;
      seen.add(`${ecosystem}:${f}`);
      const stem = f.replace(/\.(tgz|tar\.gz|whl|zip)$/, '').replace(/-v?\d[\w.+-]*$/, '');
      out.push({ set: 'devset', file: path.join(dir, f), ecosystem, label, family: `${ecosystem}:${stem.toLowerCase()}` });
    }
  };
  add(path.join(devsetDir, 'npm'), 'benign', 'npm');
  for (const label of ['benign', 'malicious'] as const) for (const eco of ['npm', 'pypi'] as const) add(path.join(devsetDir, label, eco), label, eco);
  return out;
}

/** Half the families tune, half are held out: by the family's hash, so the split is stable and needs no list. */
function side(family: string): 'tuning' | 'held-out' {
  return (createHash('sha256').update(family).digest()[0] ?? 0) % 2 === 0 ? 'tuning' : 'held-out';
}

async function judge(s: Sample): Promise<Judged | null> {
  const t0 = performance.now();
  try {
    const release = openRelease(new Uint8Array(readFileSync(s.file)), { filename: path.basename(s.file), ecosystem: s.ecosystem });
    const result = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
    const complete = release.complete && result.runs.every((r) => r.status === 'ok' || r.status === 'unavailable');
    return { ...s, assessment: assessAnalysis({ findings: result.findings, chains: result.chains, risk: result.risk, complete }), result, ms: performance.now() - t0 };
  } catch {
    console.log(`  (not a readable release: ${path.basename(s.file)})`);
    return null;
  }
}

const t0 = performance.now();
const samples = [...corpusSamples(), ...devsetSamples()];
// one archive at a time: each is held in memory while it is analysed
const judged: Judged[] = [];
for (const s of samples) {
  const j = await judge(s);
  if (j !== null) judged.push(j);
}
if (dumpFile !== '') {
  // one line per archive (side, label, verdict, findings): for reading which rules fire where without rescanning
  const lines = judged.filter((j) => showHeldOut || j.set === 'corpus' || side(j.family) === 'tuning').map((j) => JSON.stringify({ file: path.basename(j.file), set: j.set, side: side(j.family), ecosystem: j.ecosystem, label: j.label, verdict: j.assessment.verdict, chains: j.result.chains.map((c) => ({ title: c.title, severity: c.severity, steps: c.steps.map((st) => `${st.code}@${st.file ?? ''}:${st.line ?? ''}`) })), findings: j.result.findings.map((f) => ({ code: f.code, severity: f.severity, file: f.file, line: f.line, match: (f.match ?? '').slice(0, 200) })) }));
  writeFileSync(dumpFile, `${lines.join('\n')}\n`);
}
const flagged = (j: Judged): boolean => j.assessment.verdict === 'malicious' || j.assessment.verdict === 'suspicious';
const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);

function table(title: string, rows: readonly Judged[]): void {
  console.log(`\n### ${title}\n`);
  console.log('| ecosystem | malicious | benign | flagged (mal./susp.) recall | judged malicious | benign flagged | precision |');
  console.log('|---|---|---|---|---|---|---|');
  for (const eco of ['npm', 'pypi'] as const) {
    const rs = rows.filter((r) => r.ecosystem === eco);
    const mal = rs.filter((r) => r.label === 'malicious');
    const ben = rs.filter((r) => r.label === 'benign');
    const tp = mal.filter(flagged).length;
    const fp = ben.filter(flagged).length;
    console.log(`| ${eco} | ${mal.length} | ${ben.length} | ${pct(tp, mal.length)} | ${pct(mal.filter((r) => r.assessment.verdict === 'malicious').length, mal.length)} | ${fp} (${pct(fp, ben.length)}) | ${pct(tp, tp + fp)} |`);
  }
}

console.log(`\n## pkgscan detection: ${judged.length} archives in ${((performance.now() - t0) / 1000).toFixed(1)} s; flagged = assessment malicious or suspicious`);
console.log(`development set: ${devsetDir} (${judged.filter((j) => j.set === 'devset').length} archives)`);
table('shared corpus (all of it; the rules were written against it: tuned-on data)', judged.filter((j) => j.set === 'corpus'));
table('corpus + development set, tuning families (tuned on)', judged.filter((j) => side(j.family) === 'tuning'));
if (showHeldOut) table('corpus + development set, held-out families (not looked at while tuning)', judged.filter((j) => side(j.family) === 'held-out'));
table('development set, tuning families (tuned on: rules narrowed on their false positives)', judged.filter((j) => j.set === 'devset' && side(j.family) === 'tuning'));
if (showHeldOut) {
  table('development set, held-out families (not looked at while tuning)', judged.filter((j) => j.set === 'devset' && side(j.family) === 'held-out'));
  table('development set only (benign npm packs; benign PyPI stand-ins built from Debian python3 packages; any malicious samples added by hand)', judged.filter((j) => j.set === 'devset'));
} else console.log('\n(held-out figures and archives are shown only with --show-held-out: measure them once, after tuning)');

const show = (title: string, pick: (r: Judged) => boolean): void => {
  const rs = judged.filter(pick);
  console.log(`\n### ${title}: ${rs.length}`);
  for (const r of rs) {
    console.log(`- ${path.relative(REPO_ROOT, r.file)} [${r.set}, ${side(r.family)}] ${r.assessment.verdict} (risk ${r.result.risk.score})`);
    for (const f of r.result.findings.filter((x) => verbose || x.severity === 'high' || x.severity === 'critical')) console.log(`    ${f.severity} ${f.code} ${f.file ?? ''}:${f.line ?? ''} ${(f.match ?? '').slice(0, 100)}`);
  }
};
// which rules raise the benign flags, per side: where the next narrowing should look (tuning side only)
for (const half of showHeldOut ? (['tuning', 'held-out'] as const) : (['tuning'] as const)) {
  const counts = new Map<string, number>();
  for (const r of judged.filter((j) => j.label === 'benign' && flagged(j) && side(j.family) === half)) {
    for (const code of new Set(r.result.findings.filter((f) => f.severity === 'high' || f.severity === 'critical').map((f) => f.code))) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  console.log(`\nbenign flagged, ${half}: high/critical codes (releases): ${[...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ') || 'none'}`);
}
const listed = (r: Judged): boolean => showHeldOut || r.set === 'corpus' || side(r.family) === 'tuning';
show(`benign flagged${showHeldOut ? '' : ' (tuning side; --show-held-out lists the held-out side too)'}`, (r) => listed(r) && r.label === 'benign' && flagged(r));
show('malicious missed', (r) => listed(r) && r.label === 'malicious' && !flagged(r));
if (verbose) show('malicious only suspicious', (r) => listed(r) && r.label === 'malicious' && r.assessment.verdict === 'suspicious');
