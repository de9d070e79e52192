// `npm run bench -- search [--scale N]`: the workstation-wide search over a store filled through the engines' own
// operations (replay demo analyses, triage analyses, forensic scenario cases, assessments, gate runs, attrib
// extractions), every query kind through runSearch with the providers the gateway composes. Prints ms per query.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runExtractJob } from '../engines/attrib/jobs.js';
import { addObjects } from '../engines/attrib/taxii/collections.js';
import { assess, loadKnowledgeGraph } from '../engines/caseassess/index.js';
import { saveAssessment } from '../engines/caseassess/store.js';
import { InProcessRunner } from '../engines/core/jobs/in-process.js';
import { classifyQuery, runSearch } from '../engines/core/search.js';
import type { StixBundle } from '../engines/core/stix.js';
import { openStore } from '../engines/core/store.js';
import { jobs as forensicJobs, SCENARIO_JOB, type CaseJobResult } from '../engines/forensic/jobs.js';
import { completeCase, createCase } from '../engines/forensic/store.js';
import { analyze } from '../engines/petriage/analyze.js';
import { benignSamples, familySamples } from '../engines/petriage/corpus.js';
import { loadModel } from '../engines/petriage/model.js';
import { saveAnalysis as savePe } from '../engines/petriage/store.js';
import { runDemoJob } from '../engines/provgate/jobs.js';
import { saveRun } from '../engines/provgate/store.js';
import { demo, loadIndicators } from '../engines/replay/index.js';
import { saveAnalysis as saveCapture } from '../engines/replay/store.js';
import { services } from '../main/services.js';

const args = process.argv.slice(3);
const scaleArg = args.indexOf('--scale');
const scale = scaleArg >= 0 ? Number(args[scaleArg + 1]) : 1;
const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-search-'));
const db = openStore(path.join(dir, 'vitrine.db'), services.map((s) => s.descriptor));
const ctx = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };

const t0 = performance.now();
const indicators = loadIndicators();
let attacker = '';
let technique = '';
for (let i = 0; i < 200; i++) {
  const a = demo(20 * (i % 10), { indicators, now: new Date(Date.UTC(2025, 0, 1) + i * 60_000), seed: i + 1 }).analysis;
  if (i === 0) {
    attacker = a.stories[0]?.attacker ?? '';
    technique = a.stories[0]?.techniques[0]?.id ?? '';
  }
  saveCapture(db, a);
}
const model = loadModel();
const pes = [...familySamples(4, 4), ...benignSamples(4, 4)].map((s) => analyze(s.bytes, model));
for (let i = 0; i < 500 * scale; i++) savePe(db, pes[i % pes.length]!, new Date(Date.UTC(2025, 0, 1) + i * 1000));
const runner = new InProcessRunner(forensicJobs);
const names = ['ransomware', 'lateral-movement', 'ssh-bruteforce', 'insider-exfiltration', 'log-clearing'];
let events = 0;
for (let i = 0; i < 20 * scale; i++) {
  const name = names[i % names.length]!;
  const r = (await runner.run(SCENARIO_JOB, { caseId: `c${i}`, name, top: 3 })) as CaseJobResult;
  const now = new Date(Date.UTC(2025, 1, 1) + i * 1000).toISOString();
  createCase(db, { id: `c${i}`, title: `Case ${i}: ${name}`, origin: 'scenario', request: { name }, now });
  completeCase(db, `c${i}`, r.view, r.custody, now);
  events += r.view.events.length;
}
const kg = loadKnowledgeGraph();
for (let i = 0; i < 500 * scale; i++) saveAssessment(db, assess(kg, { case_id: `IR-${i}`, techniques: [{ evidence_id: 'E1', id: i % 2 === 0 ? 'T1078' : 'T1566.001' }], indicators: [{ evidence_id: 'E2', type: 'ipv4', value: `203.0.113.${i % 250}` }] }));
for (let i = 0; i < 300 * scale; i++) {
  const out = runDemoJob({ scenario: i % 2 === 0 ? 'clean' : 'cve-origin' }, ctx);
  saveRun(db, { source: 'demo', scenario: i % 2 === 0 ? 'clean' : 'cve-origin', envelopes: out.envelopes, graph: out.graph, decision: out.decision, comment: out.comment });
}
for (let i = 0; i < 1000 * scale; i++) {
  const x = runExtractJob({ text: `Report ${i}: the actor used T1059.00${i % 8} from host-${i}.example.net at 198.51.${i % 200}.${i % 250}.`, name: `Report ${i}` });
  addObjects(db, 'extractions', x.stix.objects as StixBundle['objects']);
}
const fillS = (performance.now() - t0) / 1000;
const count = (t: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
console.log(`filled in ${fillS.toFixed(1)} s: ${count('replay_analyses')} captures, ${count('replay_stories')} stories, ${count('petriage_analyses')} triage analyses, ${count('forensic_cases')} cases (${events} events, ${count('forensic_case_items')} items), ${count('caseassess_assessments')} assessments, ${count('provgate_runs')} gate runs, ${count('attrib_taxii_objects')} STIX objects; store ${(statSync(path.join(dir, 'vitrine.db')).size / 1e6).toFixed(1)} MB`);

const sources = services.map(({ descriptor: d }) => ({ name: d.name, title: d.title, workspace: d.workspace, search: d.search }));
const queries = [attacker, '203.0.113.77', pes[0]!.sha256, pes[0]!.pe?.imphash ?? 'ffffffffffffffffffffffffffffffff', technique, 'T1059.003', 'CVE-2020-14343', 'host-500.example.net', 'pkg:pypi/pyyaml@5.3', 'lateral movement', 'no-such-thing-anywhere'];
for (const q of queries) {
  const parsed = classifyQuery(q);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    total = (await runSearch(db, sources, parsed, 10)).total;
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(`${parsed.kind.padEnd(9)} ${q.slice(0, 40).padEnd(40)} ${String(total).padStart(3)} hits  median ${times[2]!.toFixed(1)} ms  worst ${times[4]!.toFixed(1)} ms`);
}
db.close();
rmSync(dir, { recursive: true, force: true });
