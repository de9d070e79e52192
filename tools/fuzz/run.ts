// `npm run fuzz -- <target|all> [--seconds N] [--seed N] [--out DIR] [--timeout-ms N] [--heap-mb N] [--option a,b]`,
// `npm run fuzz -- --list`: mutation fuzzing of one parser (or each in turn) on its real seed files. Prints the runs,
// the rate, each distinct finding and the target's hints; saves each finding's minimised input under --out (default
// fuzz-findings/, ignored by git). --timeout-ms is an input's deadline (that much a MiB over 1 MiB), --heap-mb the
// worker's heap; --option passes the target's options (`--list` shows them). Exit 1 on a finding.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { campaign, findingId, WorkerRunner, type FuzzTarget } from './fuzz.js';
import { TARGET_MODULES, TARGETS } from './targets/index.js';

function usage(code: number): never {
  console.error('usage: npm run fuzz -- <target|all> [--seconds 60] [--seed 1] [--out fuzz-findings] [--timeout-ms 5000] [--heap-mb 1024] [--option a,b]');
  console.error(`targets: ${TARGETS.map((t) => t.name).join(', ')}`);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const t of TARGETS) {
    console.log(`${t.name.padEnd(28)} ${t.about}`);
    for (const [o, what] of Object.entries(t.options ?? {})) console.log(`${''.padEnd(28)}   --option ${o}: ${what}`);
  }
  process.exit(0);
}
const positional: string[] = [];
const opts = new Map<string, string>();
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a.startsWith('--')) {
    const v = args[++i];
    if (v === undefined) usage(2);
    opts.set(a.slice(2), v);
  } else positional.push(a);
}
const num = (key: string, dflt: number): number => {
  const v = opts.get(key);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) usage(2);
  return n;
};
for (const k of opts.keys()) if (!['seconds', 'seed', 'out', 'timeout-ms', 'heap-mb', 'max-bytes', 'option'].includes(k)) usage(2);
const options = (opts.get('option') ?? '').split(',').filter((o) => o !== '');
const name = positional[0];
if (name === undefined || positional.length > 1) usage(name === undefined ? 0 : 2);
const chosen: FuzzTarget[] = name === 'all' ? [...TARGETS] : TARGETS.filter((t) => t.name === name);
if (chosen.length === 0) usage(2);
for (const o of options) {
  if (!chosen.some((t) => t.options?.[o] !== undefined)) {
    console.error(`no chosen target takes the option ${o}`);
    usage(2);
  }
}

const seconds = num('seconds', 60);
const seed = num('seed', 1);
const outDir = path.resolve(opts.get('out') ?? 'fuzz-findings');
let total = 0;
for (const target of chosen) {
  const seeds = target.seeds();
  if (seeds.length === 0) {
    console.log(`${target.name}: no seed inputs (corpora absent?), skipped`);
    continue;
  }
  const mine = options.filter((o) => target.options?.[o] !== undefined);
  const runner = new WorkerRunner({ module: TARGET_MODULES.get(target.name)!, target: target.name, timeoutMs: num('timeout-ms', 5000), heapMb: num('heap-mb', 1024), options: mine });
  const r = await campaign(seeds, runner, {
    seconds,
    seed,
    maxBytes: num('max-bytes', 8 * 1024 * 1024),
    ...(target.structure === undefined ? {} : { structure: target.structure }),
    ...(target.mutate === undefined ? {} : { mutate: target.mutate.bind(target) }),
  });
  await runner.close();
  console.log(`${target.name}: ${r.runs} inputs (${seeds.length} seeds${target.structure === undefined ? '' : `, ${target.structure} structure and byte mutations`}${target.mutate === undefined ? '' : ', format and byte mutations'}) in ${r.seconds.toFixed(1)} s, ${(r.runs / r.seconds).toFixed(0)}/s, ${r.findings.length} finding(s)`);
  for (const f of r.findings) {
    const file = path.join(outDir, target.name, `${findingId(f)}.bin`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.input);
    console.log(`  ${f.kind.padEnd(9)} x${f.count}  ${f.message}\n            ${f.signature}; input (${f.input.length} bytes): ${path.relative(process.cwd(), file)}`);
  }
  for (const [note, n] of r.notes) console.log(`  hint      x${n}  ${note}`);
  total += r.findings.length;
}
process.exit(total > 0 ? 1 : 0);
