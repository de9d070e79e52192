// `npm run bench -- caseassess`: assessments per second of a 50-item case against the full shipped knowledge graph (no peer tool to compare with),
// then the measure of the method on ATT&CK campaigns (CASEASSESS_BENCH_VARIANTS=1 adds the variants tried).
import { assess, loadKnowledgeGraph, toStix } from '../engines/caseassess/index.js';
import { measureCases, runMeasure, type Tally } from '../engines/caseassess/measure.js';
import { SHIPPED_PARAMS, type MethodParams } from '../engines/caseassess/score.js';
import { loadKb } from '../engines/attrib/kb/kb.js';
import type { CaseFile } from '../engines/core/contracts/caseassess.js';

const kg = loadKnowledgeGraph();
const actors = kg.file.actors;

// A realistic mixed case, chosen deterministically: 30 techniques, 8 software, 4 indicators, 3 sectors, 4 regions, 1 time window = 50 items.
const byTechniques = [...actors].sort((a, b) => b.techniques.length - a.techniques.length);
const primary = byTechniques[0];
const secondary = byTechniques[5];
if (!primary || !secondary) throw new Error('the knowledge graph has too few actors');
// Mostly the primary actor's evidence, the rest from others, topped up from every actor until the counts are exact.
const pool = (pick: (a: (typeof actors)[number]) => readonly string[], first: number): string[] => [
  ...new Set([...pick(primary).slice(0, first), ...pick(secondary), ...byTechniques.flatMap((a) => pick(a))]),
];
const techniqueIds = pool((a) => a.techniques, 20).slice(0, 30);
const softwareIds = pool((a) => a.software, 5).slice(0, 8);
const kase: CaseFile = {
  case_id: 'bench-50',
  title: 'Benchmark case',
  techniques: techniqueIds.map((id, i) => ({ evidence_id: `T${i}`, id, confidence: 0.5 + (i % 5) / 10 })),
  software: softwareIds.map((id, i) => ({ evidence_id: `S${i}`, ...(i % 2 === 0 ? { id } : { name: kg.software.get(id)?.name ?? id }) })),
  indicators: ['198.51.100.7', 'update-check.example', 'd41d8cd98f00b204e9800998ecf8427e', 'invoice.js'].map((value, i) => ({
    evidence_id: `I${i}`,
    type: (['ipv4', 'domain', 'md5', 'file_name'] as const)[i] ?? 'other',
    value,
  })),
  sectors: ['government', 'defense', 'energy'].map((name, i) => ({ evidence_id: `X${i}`, name })),
  regions: ['Ukraine', 'Germany', 'Europe', 'United States'].map((name, i) => ({ evidence_id: `R${i}`, name })),
  time_window: { evidence_id: 'W', start: '2022-01', end: '2023-06' },
};
const items = (kase.techniques?.length ?? 0) + (kase.software?.length ?? 0) + (kase.indicators?.length ?? 0) + (kase.sectors?.length ?? 0) + (kase.regions?.length ?? 0) + 1;
if (items !== 50) throw new Error(`the bench case has ${items} items, not 50`);

function measure(label: string, fn: () => unknown, seconds = 3): number {
  for (let i = 0; i < 20; i++) fn(); // warm-up
  let count = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(seconds * 1e9);
  let elapsed = 0n;
  while (elapsed < budget) {
    fn();
    count++;
    elapsed = process.hrtime.bigint() - start;
  }
  const perSecond = count / (Number(elapsed) / 1e9);
  console.log(`${label}: ${perSecond.toFixed(1)} per second (${count} runs in ${(Number(elapsed) / 1e9).toFixed(2)} s)`);
  return perSecond;
}

console.log(`caseassess bench: ${items}-item case against ${actors.length} actors, ${kg.file.techniques.length} techniques (ATT&CK ${kg.file.metadata.attack_version ?? '?'}), node ${process.version}`);
measure('assess (validate + score + rank), JSON', () => assess(kg, kase));
measure('assess + STIX bundle', () => toStix(kg, kase));
console.log('no peer tool is installed to compare with');

// The measure: ATT&CK campaigns attributed to a group, leave one campaign out (see engines/caseassess/measure.ts).
const attack = loadKb();
const byTarget = new Map<string, string[]>();
for (const [s, t] of attack.data.relations) byTarget.set(s, [...(byTarget.get(s) ?? []), t]);
const cases = measureCases(kg.file, { campaigns: attack.data.campaigns, uses: (s) => byTarget.get(s) ?? [] });
const share = (x: number, n: number): string => `${x}/${n} = ${n === 0 ? '-' : (x / n).toFixed(3)}`;
const report = (label: string, params: MethodParams): void => {
  const { listed, unlisted } = runMeasure(cases, params);
  console.log(`${label} ${JSON.stringify(params)}`);
  for (const [k, t] of listed) {
    const u = unlisted.get(k);
    console.log(
      `  ${k.padEnd(8)} listed (campaign left out of its group): top-1 ${share(t.top1, t.cases)}, top-3 ${share(t.top3, t.cases)}, unlisted leads ${share(t.unlistedLeads, t.cases)}; truly unlisted (group left out of the graph): unlisted leads ${u ? share(u.unlistedLeads, u.cases) : '-'}`,
    );
  }
};
console.log(`measure: ${cases.length} ATT&CK campaigns attributed to a group (${cases.map((c) => c.campaign).join(' ')}), whole and 10 seeded draws of 1, 2 and 3 items each`);
report('shipped method', SHIPPED_PARAMS);
if (process.env.CASEASSESS_BENCH_VARIANTS === '1') {
  // The variants tried, each on the even- and odd-numbered campaigns apart (choose on one half, check on the other).
  const total = (m: Map<string, Tally>, f: (t: Tally) => number): number => [...m.values()].reduce((a, t) => a + f(t), 0);
  const brief = (r: ReturnType<typeof runMeasure>): string => {
    const w = r.listed.get('whole');
    const u = r.unlisted.get('whole');
    const drawn = (m: Map<string, Tally>, f: (t: Tally) => number): number => total(m, f) - (m.get('whole') ? f(m.get('whole') as Tally) : 0);
    return `whole: listed top-1 ${w?.top1}/${w?.cases}, unlisted leads when truly unlisted ${u?.unlistedLeads}/${u?.cases}; draws: listed top-1 ${drawn(r.listed, (t) => t.top1)}/${drawn(r.listed, (t) => t.cases)}, unlisted leads when truly unlisted ${drawn(r.unlisted, (t) => t.unlistedLeads)}/${drawn(r.unlisted, (t) => t.cases)}`;
  };
  const halves = [cases.filter((_, i) => i % 2 === 0), cases.filter((_, i) => i % 2 === 1)] as const;
  const grid: MethodParams[] = [];
  for (const temperature of [1.5, 1.0])
    for (const unlistedShare of [0.2, 0.25, 0.35])
      for (const unlistedFall of [0, 0.5, 1, 2]) for (const unlistedOrphan of [unlistedShare, 0.5, 1]) grid.push({ temperature, unlistedShare, unlistedFall, unlistedOrphan });
  for (const p of grid) console.log(`${JSON.stringify(p)}\n  even: ${brief(runMeasure(halves[0], p))}\n  odd:  ${brief(runMeasure(halves[1], p))}`);
}
