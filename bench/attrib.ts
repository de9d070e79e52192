// `npm run bench -- attrib`: extraction throughput (MB/s of report text) on TRAM's annotated reports repeated, with and without the sentence classifier; attribution per second; the TRAM measures.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { attribute, extract, loadClassifier, loadKb, defaultAttribResourcesDir } from '../engines/attrib/analysis.js';
import { accuracyWith, campaignParts, evaluateOnCampaigns, nestedEvaluation, SHIPPED_WEIGHTS, WEIGHT_GRID } from '../engines/attrib/attribute/measure.js';
import { SHIPPED_CLASSIFIER_FILE, evaluateClassifier } from '../engines/attrib/classifier/classifier.js';
import { tramSplit } from '../engines/attrib/classifier/build.js';
import { precisionRecall, readTramReport, scoreExtraction, type ExtractionScore } from '../engines/attrib/extract/measure.js';
import { corpusPath } from '../test/corpora.js';

const kb = loadKb();
const reports = ['IcedID-variants', 'Qakbot-ISO-delivery', 'StopRansomware-Royal'].map((n) => readTramReport(JSON.parse(readFileSync(corpusPath('cti', 'tram', 'reports', `${n}.mjson`), 'utf8')) as unknown));
const modelFile = path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
const classifier = existsSync(modelFile) ? loadClassifier(modelFile) : undefined;

// One text near the 500,000-character limit: the three reports repeated.
const one = reports.map((r) => r.text).join('\n\n');
const text = one.repeat(Math.floor(490_000 / one.length));
const mb = Buffer.byteLength(text, 'utf8') / 1e6;

function measure(label: string, fn: () => unknown, seconds = 5): void {
  fn(); // warm-up
  let count = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(seconds * 1e9)) {
    fn();
    count++;
    elapsed = process.hrtime.bigint() - start;
  }
  const s = Number(elapsed) / 1e9;
  console.log(`${label}: ${((count * mb) / s).toFixed(2)} MB/s (${count} runs of ${mb.toFixed(3)} MB in ${s.toFixed(2)} s)`);
}

console.log(`attrib bench: ${text.length} characters of TRAM report text, KB ATT&CK ${kb.data.metadata.attack_version ?? '?'} (${kb.techniques.size} techniques, ${kb.groups.size} groups), node ${process.version}`);
measure('extract (indicators + ids + names + phrases)', () => extract(text, kb));
if (classifier) measure('extract with the shipped classifier', () => extract(text, kb, { classifier }));
measure('attribute (extract + rank 8 of all groups)', () => attribute(text, kb));
if (classifier) {
  // One 100,000-character report: CPU time (the work is single-threaded, so this is the time on one free core) and wall time.
  const sample = text.slice(0, 100_000);
  extract(sample, kb, { classifier });
  const runs = 5;
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) extract(sample, kb, { classifier });
  const cpu = process.cpuUsage(cpu0);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9 / runs;
  console.log(`extract with the shipped classifier, one 100 kB report: ${((cpu.user + cpu.system) / 1e6 / runs).toFixed(2)} s CPU, ${wall.toFixed(2)} s wall (mean of ${runs})`);
}

let score: ExtractionScore | undefined;
let withClassifier: ExtractionScore | undefined;
for (const r of reports) {
  score = scoreExtraction(r, extract(r.text, kb), score);
  if (classifier) withClassifier = scoreExtraction(r, extract(r.text, kb, { classifier }), withClassifier);
}
const show = (label: string, s: ExtractionScore): void => {
  const pr = precisionRecall(s.report);
  console.log(
    `${label}: report-level precision ${pr.precision.toFixed(3)} recall ${pr.recall.toFixed(3)}; span-level precision ${(s.span.correct / s.span.found).toFixed(3)} recall ${(s.span.recalled / s.span.annotated).toFixed(3)} (${s.span.annotated} annotated spans)`,
  );
};
show('TRAM reports, extraction', score!);
if (withClassifier) show('TRAM reports, extraction + classifier', withClassifier);
if (classifier) {
  const { test } = tramSplit(corpusPath('cti', 'tram', 'single_label.json'));
  const { threshold_selection: selection, trained } = classifier.toJson();
  console.log(`classifier, chosen by: ${selection ?? 'not recorded'}; trained on ${trained?.examples ?? '?'} examples (${(trained?.sources ?? []).join(', ')})`);
  console.log(`classifier on TRAM held-out sentences: ${JSON.stringify(evaluateClassifier(classifier, test))} (TRAM's logistic-regression baseline: micro-F1 0.855, its SciBERT model 0.906)`);
}
const parts = campaignParts(kb);
const shipped = accuracyWith(parts, SHIPPED_WEIGHTS);
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
console.log(
  `attribution, leave-one-campaign-out over ${parts.length} ATT&CK campaigns attributed to a group (techniques, software, procedure texts, time), shipped weights (chosen on these campaigns, so optimistic): top-1 ${r4(shipped.top1)}, in the shortlist of 8 ${r4(shipped.top_shortlist)}`,
);
const nested = nestedEvaluation(parts);
const settings = new Map<string, number>();
for (const c of nested.chosen) settings.set(JSON.stringify(c.weights), (settings.get(JSON.stringify(c.weights)) ?? 0) + 1);
console.log(
  `attribution, nested leave-one-campaign-out (each campaign ranked with the weights that do best on the other ${parts.length - 1}, from a grid of ${WEIGHT_GRID.length}): top-1 ${nested.top1}, in the shortlist of 8 ${nested.top_shortlist}; weights chosen ${[...settings].map(([w, n]) => `${w} x${n}`).join(', ')}`,
);
console.log(`attribution, campaigns outside the shortlist: ${nested.chosen.filter((c) => c.rank > 8).map((c) => `${c.campaign} rank ${c.rank === Infinity ? 'none' : c.rank}`).join(', ') || 'none'}`);
const techniquesOnly = evaluateOnCampaigns(kb, 8, 5, {});
console.log(`attribution, the same with techniques alone: top-1 ${techniquesOnly.top1}, in the shortlist of ${techniquesOnly.shortlist} ${techniquesOnly.top_shortlist}`);
console.log('no peer tool is installed to compare with');
