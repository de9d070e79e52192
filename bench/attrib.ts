// `npm run bench -- attrib`: extraction throughput (MB/s of report text) on TRAM's annotated reports repeated, with and without the sentence classifier; attribution per second; the TRAM measures.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { attribute, extract, loadClassifier, loadKb, defaultAttribResourcesDir } from '../engines/attrib/analysis.js';
import { evaluateOnCampaigns } from '../engines/attrib/attribute/measure.js';
import { evaluateClassifier } from '../engines/attrib/classifier/classifier.js';
import { SHIPPED_CLASSIFIER_FILE, tramSplit } from '../engines/attrib/classifier/build.js';
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
  console.log(`classifier on TRAM held-out sentences: ${JSON.stringify(evaluateClassifier(classifier, test))} (TRAM's logistic-regression baseline: micro-F1 0.855)`);
}
const campaigns = evaluateOnCampaigns(kb);
console.log(
  `attribution, leave-one-campaign-out over ${campaigns.campaigns} ATT&CK campaigns attributed to a group (techniques, software, procedure texts, time): top-1 ${campaigns.top1}, in the shortlist of ${campaigns.shortlist} ${campaigns.top_shortlist}`,
);
const techniquesOnly = evaluateOnCampaigns(kb, 8, 5, {});
console.log(`attribution, the same with techniques alone: top-1 ${techniquesOnly.top1}, in the shortlist of ${techniquesOnly.shortlist} ${techniquesOnly.top_shortlist}`);
console.log('no peer tool is installed to compare with');
