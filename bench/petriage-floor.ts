// `npm run bench -- petriage-floor [runs=N] [callgrind=N]`: what building dissect's output alone costs in a fresh process, the part
// of a cold first pass that no faster parser can remove while `dissect` returns the same JavaScript objects.
//
// The dissector (compiled to JavaScript as the cold measure compiles it) dissects the writer-built files here, untimed.
// From its results this script derives the output's shape (every key, in order; which fields are null, numbers,
// strings, lists) and, per file, a compact input: integers (every field whose values all fit 32 bits signed, list
// lengths, kind tags, string bounds) in an Int32Array, the other numbers in a Float64Array, and every string cut from
// one text by (start, end), which is what a parser in WebAssembly would hand over (its strings cut from the file's
// Latin-1 text). Integers as int32 cost V8 less than doubles to turn into values (about 15 % fewer instructions for
// the builder's pass than every number from a Float64Array).
// It then writes a builder specialised to that shape (a function per object and per list, object literals in the
// output's key order) and checks that it rebuilds every result's JSON exactly. Timed: the builder's first pass over
// the files in fresh processes (CPU of all threads, the main thread apart), alternating with the dissector's own cold
// first pass, and the builder with V8's optimising compiler off (--no-opt), which shows what compiling it costs; and two
// builders that make each object with a class of its own shape (one monomorphic constructor per shape) instead of an
// object literal, called from a function per object or in place, the same JSON either way.
// With callgrind=N (valgrind installed), the builder's pass is also counted in instructions (every thread, N processes
// with the pass and N without, with and without --no-opt), which the machine's load does not move.
// (A builder written as one function with no calls measured worse: TurboFan's one job for it, about 15 KB of
// JavaScript, outlived the pass and cost 2.4-3.2 G instructions under callgrind against 1.1 G for this whole pass.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serialize } from 'node:v8';
import { syntheticPes } from '../engines/petriage/pe/synthetic.js';
import { type Cold, MAIN_THREAD_SOURCE, REPO, coldInFreshProcess, compileDissector } from './_petriage-cold.js';
import { median } from './_measures.js';

const args = process.argv.slice(2).filter((a) => a !== 'petriage-floor');
const RUNS = Number(args.find((a) => a.startsWith('runs='))?.slice(5) ?? 5);
const CALLGRIND = Number(args.find((a) => a.startsWith('callgrind='))?.slice(10) ?? 0);
const SYNTHETIC_COUNT = Number(process.env['PETRIAGE_BENCH_SYNTHETIC'] ?? 3000);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Kind = 'null' | 'bool' | 'num' | 'str' | 'obj' | 'arr';

/** The merged shape of a value over every result: the kinds seen, an object's keys in order, a list's element shape. */
interface Shape {
  kinds: Kind[];
  keys: string[];
  fields: Map<string, Shape>;
  elem: Shape | null;
  /** Every number seen here is an integer that fits 32 bits signed. */
  int: boolean;
}

const shape = (): Shape => ({ kinds: [], keys: [], fields: new Map(), elem: null, int: true });
const kindOf = (v: Json): Kind =>
  v === null ? 'null' : Array.isArray(v) ? 'arr' : typeof v === 'object' ? 'obj' : typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : 'num';

function merge(s: Shape, v: Json): void {
  const k = kindOf(v);
  if (!s.kinds.includes(k)) s.kinds.push(k);
  if (typeof v === 'number' && !(Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31)) s.int = false;
  if (Array.isArray(v)) {
    s.elem ??= shape();
    for (const e of v) merge(s.elem, e);
  } else if (v !== null && typeof v === 'object') {
    for (const key of Object.keys(v)) {
      let f = s.fields.get(key);
      if (f === undefined) {
        f = shape();
        s.fields.set(key, f);
        s.keys.push(key);
      }
      merge(f, v[key] as Json);
    }
  }
}

/** Appends `v` to the compact input: a kind tag where the shape has several, numbers, (start, end) of strings in the text. */
function encode(s: Shape, v: Json, numbers: number[], doubles: number[], text: string[], at: { n: number }): void {
  const k = kindOf(v);
  if (s.kinds.length > 1) numbers.push(s.kinds.indexOf(k));
  if (typeof v === 'number') (s.int ? numbers : doubles).push(v);
  else if (typeof v === 'boolean') numbers.push(v ? 1 : 0);
  else if (typeof v === 'string') {
    numbers.push(at.n, at.n + v.length);
    text.push(v);
    at.n += v.length;
  } else if (Array.isArray(v)) {
    numbers.push(v.length);
    for (const e of v) encode(s.elem as Shape, e, numbers, doubles, text, at);
  } else if (v !== null) {
    for (const key of s.keys) {
      if (!(key in v)) throw new Error(`a result without ${key}: the builder assumes every key is always there`);
      encode(s.fields.get(key) as Shape, v[key] as Json, numbers, doubles, text, at);
    }
  }
}

/**
 * The builder's source: a function per object and per list of the shape, reading N (integers), D (doubles) and T (text) at cursors.
 * With `classes`, each object is made by a class of its own (one constructor per shape, taking its fields in key order and
 * storing them in that order, so the JSON is the same) instead of an object literal.
 */
function builderSource(root: Shape, classes: 'no' | 'calls' | 'inline' = 'no'): string {
  const fns: string[] = [];
  let count = 0;
  const read = (s: Shape, k: Kind): string => {
    switch (k) {
      case 'null':
        return 'null';
      case 'num':
        return s.int ? 'N[i++]' : 'D[d++]';
      case 'bool':
        return '(N[i++] === 1)';
      case 'str':
        return 'T.slice(N[i++], N[i++])';
      case 'obj': {
        const name = `o${count++}`;
        if (classes !== 'no') {
          const params = s.keys.map((_, k) => `f${k}`);
          const stores = s.keys.map((key, k) => `    this[${JSON.stringify(key)}] = f${k};`).join('\n');
          const args = s.keys.map((key) => `    ${value(s.fields.get(key) as Shape)},`).join('\n');
          fns.push(`class C${name} {\n  constructor(${params.join(', ')}) {\n${stores}\n  }\n}`);
          // 'inline': the constructor is called where the object is needed (no function per object, only per list).
          if (classes === 'inline') return `new C${name}(\n${args}\n  )`;
          fns.push(`function ${name}() {\n  return new C${name}(\n${args}\n  );\n}`);
          return `${name}()`;
        }
        const body = s.keys.map((key) => `    ${JSON.stringify(key)}: ${value(s.fields.get(key) as Shape)},`).join('\n');
        fns.push(`function ${name}() {\n  return {\n${body}\n  };\n}`);
        return `${name}()`;
      }
      case 'arr': {
        const name = `a${count++}`;
        const element = s.elem === null ? 'null' : value(s.elem);
        fns.push(`function ${name}() {\n  const n = N[i++];\n  const out = [];\n  for (let k = 0; k < n; k++) out.push(${element});\n  return out;\n}`);
        return `${name}()`;
      }
    }
  };
  const value = (s: Shape): string => {
    const parts = s.kinds.map((k) => read(s, k));
    if (parts.length === 1) return parts[0] as string;
    // The tag is read before the branch; a nested value's tag is read inside it, after this one is done with.
    let out = parts[parts.length - 1] as string;
    for (let k = parts.length - 2; k >= 0; k--) out = `(t === ${k} ? ${parts[k] as string} : ${out})`;
    return `((t = N[i++]), ${out})`;
  };
  const top = value(root);
  return `let N, D, T, i, d, t;\n${fns.join('\n')}\nexport function build(input) {\n  N = input.N;\n  D = input.D;\n  T = input.T;\n  i = 0;\n  d = 0;\n  return ${top};\n}\n`;
}

/**
 * The fresh process: loads the builder and the inputs (untimed), then one timed pass; 'check' compares every JSON
 * instead, 'skip' leaves the pass out (for the instructions of the pass by difference).
 */
const FLOOR_PASS = `
const { readFileSync } = await import('node:fs');
const { deserialize } = await import('node:v8');
${MAIN_THREAD_SOURCE}
const { build } = await import(process.argv[1]);
const inputs = deserialize(readFileSync(process.argv[2]));
if (process.argv[4] === 'check') {
  const expected = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  let differ = 0;
  for (let k = 0; k < inputs.length; k++) if (JSON.stringify(build(inputs[k])) !== expected[k]) differ++;
  process.stdout.write(JSON.stringify({ differ }));
} else {
  const main0 = mainThread();
  const cpu0 = process.cpuUsage();
  let sink = 0;
  if (process.argv[4] !== 'skip') for (const input of inputs) sink += build(input).size;
  const cpu = process.cpuUsage(cpu0);
  const main1 = mainThread();
  process.stdout.write(JSON.stringify({ cpu: (cpu.user + cpu.system) / 1e6, main: main0 === null || main1 === null ? null : main1 - main0, sink }));
}
`;

interface Floor {
  cpu: number;
  main: number | null;
}

function floorPass(builder: string, inputs: string, expected: string, flags: readonly string[], mode = 'time'): string {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', FLOOR_PASS, pathToFileURL(builder).href, inputs, expected, mode], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`the builder's pass failed: ${r.stderr}`);
  return r.stdout;
}

const ms = (seconds: number): string => `${(seconds * 1000).toFixed(1)} ms`;
const line = (runs: readonly Floor[]): string => {
  const cpu = median(runs.map((r) => r.cpu));
  const main = runs.map((r) => r.main).filter((m): m is number => m !== null);
  return main.length === runs.length ? `CPU ${ms(cpu)} (main thread ${ms(median(main))}, helper threads ${ms(median(runs.map((r) => r.cpu - (r.main as number))))})` : `CPU ${ms(cpu)}`;
};

const cacheRoot = path.join(REPO, 'node_modules', '.cache');
mkdirSync(cacheRoot, { recursive: true });
const work = mkdtempSync(path.join(cacheRoot, 'petriage-floor-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const entry = compileDissector(path.join(work, 'dissector'));
const { dissect } = (await import(pathToFileURL(entry).href)) as { dissect: (data: Uint8Array) => Json };

const built = syntheticPes(SYNTHETIC_COUNT, 1);
const paths = built.map((bytes, i) => {
  const p = path.join(work, `s${i}.bin`);
  writeFileSync(p, bytes);
  return p;
});
const results = built.map((b) => dissect(b));
const root = shape();
for (const r of results) merge(root, r);
const inputs = results.map((r) => {
  const numbers: number[] = [];
  const doubles: number[] = [];
  const text: string[] = [];
  encode(root, r, numbers, doubles, text, { n: 0 });
  return { N: Int32Array.from(numbers), D: Float64Array.from(doubles), T: text.join('') };
});
const inputsFile = path.join(work, 'inputs.bin');
const expectedFile = path.join(work, 'expected.json');
const builder = path.join(work, 'builder.mjs');
const classBuilder = path.join(work, 'builder-classes.mjs');
const inlineClassBuilder = path.join(work, 'builder-classes-inline.mjs');
writeFileSync(inputsFile, serialize(inputs));
writeFileSync(expectedFile, JSON.stringify(results.map((r) => JSON.stringify(r))));
const source = builderSource(root);
writeFileSync(builder, source);
writeFileSync(classBuilder, builderSource(root, 'calls'));
writeFileSync(inlineClassBuilder, builderSource(root, 'inline'));

console.log(`petriage output floor: building dissect's output from compact inputs, ${built.length} writer-built files (node ${process.version})`);
console.log(
  `  builder: a function per object and list, ${source.length} characters of JavaScript; per file ${(inputs.reduce((a, x) => a + x.N.length, 0) / inputs.length).toFixed(0)} integers, ${(inputs.reduce((a, x) => a + x.D.length, 0) / inputs.length).toFixed(0)} doubles and ${(inputs.reduce((a, x) => a + x.T.length, 0) / inputs.length).toFixed(0)} characters of text`,
);
for (const [name, b] of [
  ['object literals', builder],
  ['a class per object shape', classBuilder],
  ['a class per object shape, constructed in place', inlineClassBuilder],
] as const) {
  const check = JSON.parse(floorPass(b, inputsFile, expectedFile, [], 'check')) as { differ: number };
  console.log(`  rebuilt JSON (${name}): ${check.differ === 0 ? `identical on all ${results.length}` : `${check.differ} DIFFER`}`);
  if (check.differ !== 0) process.exitCode = 1;
}

const cold: Cold[] = [];
const sides: [string, string, string[], Floor[]][] = [
  ['the output builder alone', builder, [], []],
  ['the output builder alone, --no-opt', builder, ['--no-opt'], []],
  ['the output builder alone, a class per object shape', classBuilder, [], []],
  ['the output builder alone, a class per object shape, constructed in place', inlineClassBuilder, [], []],
];
for (let k = 0; k < RUNS; k++) {
  cold.push(coldInFreshProcess(paths, built, entry));
  for (const [, b, flags, runs] of sides) runs.push(JSON.parse(floorPass(b, inputsFile, expectedFile, flags)) as Floor);
}
const cpuOf = median(cold.map((c) => c.cpu));
console.log(`\nfirst pass in fresh processes, ${RUNS} runs of each alternating (medians; ratio: CPU against dissect's)`);
console.log(`  dissect (the whole cold pass): ${line(cold)}`);
for (const [name, , , runs] of sides) console.log(`  ${name}: ${line(runs)}; ${(median(runs.map((f) => f.cpu)) / cpuOf).toFixed(2)}`);

if (CALLGRIND > 0) {
  const count = (b: string, flags: readonly string[], mode: string): number | null => {
    const r = spawnSync(
      'valgrind',
      ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...flags, '--input-type=module', '-e', FLOOR_PASS, pathToFileURL(b).href, inputsFile, expectedFile, mode],
      { encoding: 'utf8', maxBuffer: 16 << 20 },
    );
    const m = /Collected : (\d+)/.exec(r.stderr);
    return r.status === 0 && m !== null ? Number(m[1]) : null;
  };
  console.log(`\ninstructions of the builder's pass under callgrind (every thread; ${CALLGRIND} processes with the pass and without it)`);
  for (const [label, b, flags] of [
    ['as it runs', builder, []],
    ['--no-opt', builder, ['--no-opt']],
    ['a class per object shape', classBuilder, []],
    ['a class per object shape, constructed in place', inlineClassBuilder, []],
  ] as const) {
    const withPass: number[] = [];
    const without: number[] = [];
    for (let k = 0; k < CALLGRIND; k++) {
      const a = count(b, flags, 'time');
      const skipped = count(b, flags, 'skip');
      if (a !== null && skipped !== null) {
        withPass.push(a);
        without.push(skipped);
      }
    }
    console.log(withPass.length === 0 ? `  ${label}: callgrind failed` : `  ${label}: ${((median(withPass) - median(without)) / 1e9).toFixed(3)} G`);
  }
}
