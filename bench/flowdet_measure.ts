// Measures a full study end to end on a real corpus sample, as an analyst would check it: the study through the
// command line with --save-model, then `flowdet serve`'s app on that bundle, the test rows POSTed to /score with
// their derived columns removed; prints accuracy, the largest L-inf distance beyond its budget, the share of
// adversarial rows passing the mined relations, and robust accuracy by eps per attacked model.
// Run: node --import tsx bench/flowdet_measure.ts <csv> [--quick]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { splitCsvLine } from '../engines/core/ml/index.js';
import { listen } from '../engines/core/http/server.js';
import { main } from '../engines/flowdet/cli.js';
import { featureResolver } from '../engines/flowdet/data/csv.js';
import { loadData } from '../engines/flowdet/data/datasets.js';
import { createStandaloneApp } from '../engines/flowdet/http.js';
import type { StudyReport } from '../engines/flowdet/studies/run.js';

const file = path.resolve(process.argv[2]!);
const quick = process.argv.includes('--quick');
const out = mkdtempSync(path.join(tmpdir(), 'flowdet-measure-'));
const t0 = Date.now();
const r = await main(['run', '--data', file, '--out', out, '--save-model', ...(quick ? ['--quick'] : [])]);
process.stdout.write(r.stdout + r.stderr);
if (r.code !== 0) process.exit(1);
const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as StudyReport;
const server = await listen(createStandaloneApp({ modelPath: path.join(out, 'model.json') }), { port: 0 });
try {
  // The study's own split (seed 0) of the same file: score its test rows through /score without derived columns.
  const loaded = await loadData(file, { seed: 0 });
  const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = splitCsvLine(lines.shift()!)!;
  const resolve = featureResolver(loaded.table.schema);
  const keep = header.map((n) => {
    const f = resolve(n);
    return f === undefined || loaded.table.schema.features[loaded.table.schema.index.get(f)!]!.cls !== 'derived';
  });
  const dropped = header.filter((_, c) => !keep[c]);
  const test = Array.from(loaded.test);
  let correct = 0;
  let scored = 0;
  for (let s = 0; s < test.length; s += 1000) {
    const flows = test.slice(s, s + 1000).map((i) => Object.fromEntries(splitCsvLine(lines[i]!)!.flatMap((v, c) => (keep[c] ? [[header[c]!, v]] : []))));
    const res = await fetch(`${server.url}/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ flows }) });
    const body = (await res.json()) as { results: { verdict: string }[]; model: { data: string } };
    if (res.status !== 200) throw new Error(`score answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    body.results.forEach((x, j) => (correct += (x.verdict === 'malicious' ? 1 : 0) === loaded.table.y[test[s + j]!] ? 1 : 0));
    scored += body.results.length;
  }
  const v = report.validity;
  console.log(`\n== ${path.basename(file)} (${quick ? 'quick' : 'full'} study, ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  console.log(`derived columns removed before /score: ${dropped.length} (${dropped.slice(0, 6).join(', ')}${dropped.length > 6 ? ', ...' : ''})`);
  console.log(`/score accuracy on ${scored} test rows without derived columns: ${(correct / scored).toFixed(4)}; report served_model accuracy ${report.served_model.test.accuracy.toFixed(4)}`);
  console.log(`adversarial rows checked ${v.checked}, invalid ${v.invalid}, dropped ${v.dropped}; largest L-inf minus its eps over all of them: ${v.max_linf_excess.toExponential(3)} (must be <= 1e-9)`);
  console.log(`share passing the mined relations: ${v.physical_valid_share.toFixed(4)}`);
  const curves = [...report.attacks, ...(report.hardening ? [report.hardening.baseline, report.hardening.hardened] : [])];
  console.log('robust accuracy by eps (0.25 / 0.5 / 1 / 2) and detection; max L-inf per eps:');
  for (const a of curves) console.log(`  ${a.detector.padEnd(18)} ${a.budgets.map((b) => b.robust_accuracy.toFixed(3)).join(' / ')}   detection ${a.robustness.detection_rate.map((d) => d.toFixed(3)).join(' / ')}   max_linf ${a.budgets.map((b) => b.max_linf.toFixed(3)).join(' / ')}`);
} finally {
  await server.close();
}
