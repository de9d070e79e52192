// `npm run bench -- manifests`: entries per second per lock format over the supply-chain corpus, and component sets and speed against cdxgen when it is on PATH.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatFor, pep503, pinsOf, readManifest } from '../engines/core/manifests/index.js';
import type { Ecosystem, ManifestFormat } from '../engines/core/manifests/index.js';
import { corpusPath } from '../test/corpora.js';

/** Lock and manifest files of the corpus, with the name the library reads each one by. */
function corpusFiles(): { rel: string; file: string }[] {
  const roots = [corpusPath('supplychain', 'lockfiles'), corpusPath('supplychain', 'reports', 'trivy', 'inputs')];
  const out: { rel: string; file: string }[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const rel of readdirSync(root, { recursive: true }) as string[]) {
      const file = path.join(root, rel);
      if (!statSync(file).isFile()) continue;
      const name = path.basename(file);
      if (formatFor(name) === 'requirements' && !/^requirements.*\.txt$/.test(name)) continue;
      out.push({ rel: path.relative(corpusPath('supplychain'), file), file });
    }
  }
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

interface Measure {
  readonly entries: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly runs: number;
}

/** Parses one file repeatedly for at least `budget` seconds (after one warm-up run). */
function measure(name: string, text: string, budget = 0.4): Measure {
  const entries = readManifest(name, text).entries.length;
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (runs < 3 || elapsed < budget * 1000) {
    readManifest(name, text);
    runs++;
    elapsed = performance.now() - start;
  }
  return { entries: entries * runs, bytes: Buffer.byteLength(text) * runs, seconds: elapsed / 1000, runs };
}

function findOnPath(command: string): string | undefined {
  const explicit = process.env['CDXGEN_BIN'];
  if (explicit !== undefined && existsSync(explicit)) return explicit;
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const CDXGEN_TYPE: Record<Ecosystem, string> = { npm: 'js', pypi: 'python', golang: 'go', cargo: 'rust' };

/** `name@version` keys in one convention for both tools: pypi names PEP 503, Go `v` versions, npm scopes kept. */
function key(ecosystem: Ecosystem, name: string, version: string): string {
  if (ecosystem === 'pypi') return `${pep503(name)}@${version}`;
  if (ecosystem === 'golang') return `${name}@${version.startsWith('v') ? version : `v${version}`}`;
  return `${name}@${version}`;
}

/** Components of a CycloneDX document (nested ones too, not the metadata's root component), keyed from their package URLs. */
function cdxComponents(bom: unknown, ecosystem: Ecosystem): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [bom];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const rec = node as Record<string, unknown>;
    const purl = rec['purl'];
    if (typeof purl === 'string') {
      const m = /^pkg:([^/]+)\/(.+?)@([^?#]+)/.exec(purl);
      if (m !== null) out.add(key(ecosystem, decodeURIComponent(m[2] ?? ''), decodeURIComponent(m[3] ?? '')));
    }
    for (const k of ['components']) {
      const v = rec[k];
      if (Array.isArray(v)) stack.push(...(v as unknown[]));
      else if (v !== undefined) stack.push(v);
    }
  }
  return out;
}

function compareWithCdxgen(cdxgen: string, files: { rel: string; file: string }[]): void {
  console.log(`\ncdxgen: ${cdxgen}`);
  console.log('file | ours | cdxgen | common | only ours | only cdxgen | ours ms | cdxgen ms (process)');
  for (const { rel, file } of files) {
    const name = path.basename(file);
    const text = readFileSync(file, 'utf8');
    const t0 = performance.now();
    const doc = readManifest(name, text);
    const oursMs = performance.now() - t0;
    const ours = new Set(pinsOf(doc).map((e) => key(doc.ecosystem, e.name, e.version)));
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cdxgen-'));
    try {
      copyFileSync(file, path.join(dir, name));
      // a package.json beside an npm lock tells cdxgen the project; copy it when the corpus has one
      const manifest = path.join(path.dirname(file), 'package.json');
      if (doc.ecosystem === 'npm' && existsSync(manifest)) copyFileSync(manifest, path.join(dir, 'package.json'));
      const out = path.join(dir, 'bom.json');
      const t1 = performance.now();
      execFileSync(cdxgen, ['-t', CDXGEN_TYPE[doc.ecosystem], '-o', out, '--no-recurse', '--no-install-deps', dir], {
        stdio: 'ignore',
        timeout: 300_000,
        env: { ...process.env, FETCH_LICENSE: 'false', CDXGEN_NO_BANNER: 'true', NODE_NO_WARNINGS: '1' },
      });
      const theirMs = performance.now() - t1;
      const theirs = existsSync(out) ? cdxComponents(JSON.parse(readFileSync(out, 'utf8')), doc.ecosystem) : new Set<string>();
      const common = [...ours].filter((k) => theirs.has(k)).length;
      console.log(
        `${rel} | ${ours.size} | ${theirs.size} | ${common} | ${ours.size - common} | ${theirs.size - common} | ${oursMs.toFixed(1)} | ${theirMs.toFixed(0)}`,
      );
      const onlyOurs = [...ours].filter((k) => !theirs.has(k)).slice(0, 3);
      const onlyTheirs = [...theirs].filter((k) => !ours.has(k)).slice(0, 3);
      if (onlyOurs.length + onlyTheirs.length > 0) console.log(`    e.g. only ours: ${onlyOurs.join(', ') || '-'}; only cdxgen: ${onlyTheirs.join(', ') || '-'}`);
    } catch {
      console.log(`${rel} | ${ours.size} | cdxgen failed on this file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

// MANIFESTS_BENCH_FILTER=<text> keeps the files whose corpus path contains it
const filter = process.env['MANIFESTS_BENCH_FILTER'];
const files = corpusFiles().filter((f) => filter === undefined || f.rel.includes(filter));
if (files.length === 0) {
  console.log('manifests bench: the supply-chain corpus is not present (set VITRINE_CORPORA)');
  process.exit(0);
}

console.log('manifests: parse throughput over the supply-chain corpus (one core, after a warm-up run)\n');
console.log('file | format | entries | runs | entries/s | MB/s');
const byFormat = new Map<ManifestFormat, { entries: number; bytes: number; seconds: number }>();
for (const { rel, file } of files) {
  const name = path.basename(file);
  const text = readFileSync(file, 'utf8');
  const m = measure(name, text);
  const format = formatFor(name);
  const agg = byFormat.get(format) ?? { entries: 0, bytes: 0, seconds: 0 };
  byFormat.set(format, { entries: agg.entries + m.entries, bytes: agg.bytes + m.bytes, seconds: agg.seconds + m.seconds });
  console.log(
    `${rel} | ${format} | ${m.entries / m.runs} | ${m.runs} | ${Math.round(m.entries / m.seconds)} | ${(m.bytes / m.seconds / 1e6).toFixed(1)}`,
  );
}
console.log('\nformat | entries/s | MB/s');
for (const [format, agg] of [...byFormat].sort((a, b) => a[0].localeCompare(b[0])))
  console.log(`${format} | ${Math.round(agg.entries / agg.seconds)} | ${(agg.bytes / agg.seconds / 1e6).toFixed(1)}`);

const cdxgen = findOnPath('cdxgen');
if (cdxgen === undefined) console.log('\ncdxgen: not on PATH, no comparison (install @cyclonedx/cdxgen, or set CDXGEN_BIN, to compare component sets and speed)');
else compareWithCdxgen(cdxgen, files);
