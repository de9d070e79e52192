// The cold measure of the PE dissector, shared by `npm run bench -- petriage` and `petriage-ab`: the dissector's module
// graph compiled to JavaScript, and the first pass over a list of files in a fresh Node process (not a bench of its own).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface Timing {
  files: number;
  bytes: number;
  wall: number;
  cpu: number;
}

/** This checkout. */
export const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The dissection module of a checkout, for the fresh process of the cold figure under tsx. */
export function dissectSource(repo: string): string {
  return path.join(repo, 'engines', 'petriage', 'pe', 'index.ts');
}

/**
 * The dissector's module graph compiled to JavaScript as `npm run build:node` compiles it (TypeScript, the
 * project's compiler options; each file on its own, which verbatimModuleSyntax makes the same output), into a
 * directory under node_modules/.cache: what `bin/petriage` loads from dist/, without building all of dist/.
 * Returns the compiled entry module.
 */
export function compileDissector(outRoot: string, repo: string = REPO): string {
  const DISSECT_SOURCE = dissectSource(repo);
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, isolatedModules: true };
  const todo = [DISSECT_SOURCE];
  const seen = new Set<string>();
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const out = path.join(outRoot, path.relative(repo, file)).replace(/\.ts$/, '.js');
    mkdirSync(path.dirname(out), { recursive: true });
    const js = ts.transpileModule(source, { compilerOptions: options, fileName: file }).outputText;
    writeFileSync(out, js);
    // Relative imports of the compiled output (type-only ones are gone from it), back to their sources.
    for (const m of js.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)) todo.push(path.resolve(path.dirname(file), `${m[1] as string}.ts`));
  }
  writeFileSync(path.join(outRoot, 'package.json'), '{ "type": "module" }\n');
  return path.join(outRoot, path.relative(repo, DISSECT_SOURCE)).replace(/\.ts$/, '.js');
}

/**
 * Source text for a fresh process's script (after `readFileSync` is in scope): `mainThread()`, the main thread's CPU
 * seconds so far from Linux's per-thread scheduler statistics, null elsewhere.
 */
export const MAIN_THREAD_SOURCE = `const mainThread = () => {
  try {
    return Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return null;
  }
};`;

/**
 * What the fresh process runs: the process CPU time so far (Node's start, and the tsx loader's registration when
 * it runs under tsx), then loading the module, reading the files (not timed), and one timed pass. CPU time is the
 * whole process's, its compiler and collector threads included; the main thread's own share of the pass is read
 * from Linux's per-thread scheduler statistics (nanoseconds on the CPU), null elsewhere.
 */
export const COLD_PASS = `
const boot = process.cpuUsage();
const { readFileSync } = await import('node:fs');
${MAIN_THREAD_SOURCE}
const { dissect } = await import(process.argv[1]);
const loaded = process.cpuUsage(boot);
const files = readFileSync(0, 'utf8').split('\\n').filter(Boolean).map((p) => new Uint8Array(readFileSync(p)));
const main0 = mainThread();
const cpu0 = process.cpuUsage();
const wall0 = process.hrtime.bigint();
// 'skip' leaves the pass out: the rest of the process, for a measure of the pass alone by difference.
if (process.argv[2] !== 'skip') for (const f of files) {
  try {
    dissect(f);
  } catch (e) {
    if (e?.constructor?.name !== 'VitrineError') throw e;
  }
}
const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
const cpu = process.cpuUsage(cpu0);
const main1 = mainThread();
const s = (u) => (u.user + u.system) / 1e6;
const main = main0 === null || main1 === null ? null : main1 - main0;
process.stdout.write(JSON.stringify({ wall, cpu: s(cpu), boot: s(boot), load: s(loaded), main }));
`;

/** One cold measure: the first pass of a fresh process, with what that process spent before it (CPU seconds). */
export interface Cold extends Timing {
  /** The process's start (Node and the tsx loader; the Python interpreter). */
  boot: number;
  /** Loading the dissector (our module graph under tsx; `import pefile`). */
  load: number;
  /**
   * The first pass's CPU time on the main thread (Node; null where the system does not say); the rest of `cpu` is
   * V8's helper threads, most of it TurboFan compiling the functions that got hot. pefile's side has no such split.
   */
  main: number | null;
}

/**
 * The cold figure: the first pass over the files in a fresh Node process, which has dissected nothing before, so V8
 * compiles each function of the parser at its first call and runs it unoptimised; the process's start and loading
 * the module are measured apart. `compiled` is the dissector compiled to JavaScript, run by plain Node (as
 * `bin/petriage` runs dist/); without it, the TypeScript sources under the tsx loader, as this bench runs.
 */
export function coldInFreshProcess(paths: readonly string[], files: readonly Uint8Array[], compiled: string | null, repo: string = REPO): Cold {
  const loader = compiled === null ? ['--import', 'tsx'] : [];
  const entry = compiled ?? dissectSource(repo);
  const r = spawnSync(process.execPath, [...loader, '--input-type=module', '-e', COLD_PASS, pathToFileURL(entry).href], {
    input: paths.join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`the cold pass failed: ${r.stderr}`);
  const t = JSON.parse(r.stdout) as { wall: number; cpu: number; boot: number; load: number; main: number | null };
  return { files: files.length, bytes: files.reduce((a, f) => a + f.length, 0), ...t };
}

