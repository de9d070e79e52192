// `npm run bench -- pkgscan-detect [--verbose]`: detection of the package analyzers on the labelled corpus (../shared/corpora/packages): TP/FP/FN/TN, recall and precision per ecosystem, every false positive and miss with the findings that fired.
import path from 'node:path';
import { evaluateCorpus, scoreCorpus } from '../engines/pkgscan/analyzers/corpus.js';
import { corpusPath, REPO_ROOT } from '../test/corpora.js';

const verbose = process.argv.includes('--verbose');
const t0 = performance.now();
const results = await evaluateCorpus(corpusPath('packages'), path.join(REPO_ROOT, 'resources'));
const seconds = (performance.now() - t0) / 1000;
const scores = scoreCorpus(results);
console.log(`\n## pkgscan detection: ${results.length} archives in ${seconds.toFixed(1)} s ("flagged" = a high/critical finding or chain, or risk >= 0.7)\n`);
console.log('| ecosystem | TP | FP | FN | TN | recall | precision |');
console.log('|---|---|---|---|---|---|---|');
for (const [eco, s] of Object.entries(scores)) console.log(`| ${eco} | ${s.tp} | ${s.fp} | ${s.fn} | ${s.tn} | ${(s.recall * 100).toFixed(1)} % | ${(s.precision * 100).toFixed(1)} % |`);
const show = (title: string, pick: (r: (typeof results)[number]) => boolean): void => {
  const rs = results.filter(pick);
  console.log(`\n### ${title}: ${rs.length}`);
  for (const r of rs) {
    console.log(`- ${r.file} (risk ${r.result.risk.score})`);
    for (const f of r.result.findings.filter((x) => verbose || x.severity !== 'info')) console.log(`    ${f.severity} ${f.code} ${f.file ?? ''}:${f.line ?? ''} ${(f.match ?? '').slice(0, 100)}`);
  }
};
show('false positives', (r) => r.label === 'benign' && r.flagged);
show('misses', (r) => r.label === 'malicious' && !r.flagged);
if (verbose) show('detected', (r) => r.label === 'malicious' && r.flagged);
const slow = [...results].sort((a, b) => b.ms - a.ms).slice(0, 3);
console.log(`\nslowest: ${slow.map((r) => `${r.file} ${r.ms.toFixed(0)} ms`).join(', ')}`);
