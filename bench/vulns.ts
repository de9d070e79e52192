// `npm run bench -- vulns`: advisory import speed and peak RSS on a synthetic all.zip of real-shaped OSV records, lookup latency p50/p99 cached and uncached, comparator disagreements with dpkg.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { deflateRawSync } from 'node:zlib';
import { AdvisoryStore } from '../engines/core/vulns/store.js';
import { compareDpkg } from '../engines/core/vulns/versions/index.js';
import { corpusPath } from '../test/corpora.js';

const RECORDS = Number(process.env['VULNS_BENCH_RECORDS'] ?? 200_000);
const LOOKUPS = 10_000;
const self = fileURLToPath(import.meta.url);

/** The corpus's OSV records: the templates every synthetic record is varied from. */
function templates(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const d of ['ghsa', 'go-vulndb', 'malicious-packages']) {
    const dir = corpusPath('supplychain', 'osv', d);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (f.endsWith('.json')) out.push(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);
  }
  if (out.length === 0) throw new Error('the supply-chain corpus is needed (VITRINE_CORPORA)');
  return out;
}

const ECOS = [
  { ecosystem: 'npm', versions: (i: number) => [`${i % 7}.${i % 13}.0`, `${(i % 7) + 1}.0.0`] },
  { ecosystem: 'PyPI', versions: (i: number) => [`${i % 5}.${i % 11}`, `${(i % 5) + 1}.0rc1`] },
  { ecosystem: 'Go', versions: (i: number) => [`0.${i % 9}.0`, `1.${i % 4}.2`] },
  { ecosystem: 'Debian:12', versions: (i: number) => [`1.${i % 8}-1`, `2:1.${i % 8}-2~deb12u1`] },
];

/** Record i: a template with a new id, aliases, package name and range bounds, so names repeat (about 5 advisories a package). */
function synth(t: Record<string, unknown>, i: number): Record<string, unknown> {
  const e = ECOS[i % ECOS.length] as (typeof ECOS)[number];
  const [lo, hi] = e.versions(i) as [string, string];
  const name = `pkg-${Math.floor(i / 5) % 40_000}`;
  return {
    ...t,
    id: `BENCH-${i}`,
    modified: new Date(Date.now() - (i % 20) * 86_400_000).toISOString(),
    aliases: [`CVE-2099-${100_000 + i}`],
    affected: [{ package: { ecosystem: e.ecosystem, name }, ranges: [{ type: e.ecosystem === 'npm' || e.ecosystem === 'Go' ? 'SEMVER' : 'ECOSYSTEM', events: [{ introduced: lo }, { fixed: hi }] }], versions: [lo] }],
  };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A deflated zip of n records written entry by entry, with the zip64 end records that an archive of more than 65,535
 * entries needs (as OSV's exports have; fflate's writer does not emit them).
 */
function writeZip(file: string, n: number): void {
  const fd = openSync(file, 'w');
  const ts = templates();
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < n; i++) {
    const name = Buffer.from(`advisories/BENCH-${i}.json`);
    const data = Buffer.from(JSON.stringify(synth(ts[i % ts.length] as Record<string, unknown>, i)));
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    writeSync(fd, local);
    writeSync(fd, name);
    writeSync(fd, packed);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(45, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(packed.length, 20);
    cd.writeUInt32LE(data.length, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + packed.length;
  }
  const cdStart = offset;
  const cdBuf = Buffer.concat(central);
  writeSync(fd, cdBuf);
  const z64 = Buffer.alloc(56);
  z64.writeUInt32LE(0x06064b50, 0);
  z64.writeBigUInt64LE(44n, 4);
  z64.writeUInt16LE(45, 12);
  z64.writeUInt16LE(45, 14);
  z64.writeBigUInt64LE(BigInt(n), 24);
  z64.writeBigUInt64LE(BigInt(n), 32);
  z64.writeBigUInt64LE(BigInt(cdBuf.length), 40);
  z64.writeBigUInt64LE(BigInt(cdStart), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdStart + cdBuf.length), 8);
  locator.writeUInt32LE(1, 16);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(Math.min(n, 0xffff), 8);
  eocd.writeUInt16LE(n > 0xffff ? 0xffff : n, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(cdStart, 16);
  writeSync(fd, Buffer.concat([z64, locator, eocd]));
  closeSync(fd);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * This process's peak RSS: VmHWM of /proc (the address space's own high-water mark); getrusage's maxrss would carry
 * over the parent's peak at fork on Linux, and the parent has just written the archive.
 */
function peakRssMiB(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // Not Linux: getrusage's figure.
  }
  return process.resourceUsage().maxRSS / 1024;
}

async function childImport(zipFile: string, dbFile: string): Promise<void> {
  const db = new BetterSqlite3(dbFile);
  db.pragma('journal_mode = WAL');
  const store = new AdvisoryStore(db);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await store.importFile(zipFile);
  const s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const kev = corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.json');
  if (existsSync(kev)) await store.importFile(kev);
  db.close();
  process.stdout.write(JSON.stringify({ records: r.records, warnings: r.warnings, seconds: s, cpuSeconds: (c.user + c.system) / 1e6, maxRssMiB: peakRssMiB(), heapUsedMiB: process.memoryUsage().heapUsed / 1048576 }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vulns-bench-'));
  try {
    const zipFile = path.join(dir, 'all.zip');
    const dbFile = path.join(dir, 'bench.db');
    let t0 = performance.now();
    writeZip(zipFile, RECORDS);
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    console.log(`synthetic all.zip: ${RECORDS} records, ${(statSync(zipFile).size / 1048576).toFixed(1)} MiB, written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // The import in its own process, so its peak RSS is the import's alone.
    // VULNS_BENCH_HEAP_MB caps the import's heap (shows what the import needs live, not what V8 lets grow).
    const heap = process.env['VULNS_BENCH_HEAP_MB'];
    const flags = heap !== undefined ? [`--max-old-space-size=${heap}`] : [];
    const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', self, '--child-import', zipFile, dbFile], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (child.status !== 0) throw new Error(`import child failed: ${child.stderr}`);
    const imp = JSON.parse(child.stdout) as { records: number; warnings: number; seconds: number; cpuSeconds: number; maxRssMiB: number; heapUsedMiB: number };
    console.log(`import: ${imp.records} records in ${imp.seconds.toFixed(1)} s wall = ${Math.round(imp.records / imp.seconds)} records/s (CPU ${imp.cpuSeconds.toFixed(1)} s = ${Math.round(imp.records / imp.cpuSeconds)} records per CPU-second), ${imp.warnings} warnings, peak RSS ${imp.maxRssMiB.toFixed(0)} MiB (whole process${heap !== undefined ? `, heap capped at ${heap} MiB` : ''}), heap used after ${imp.heapUsedMiB.toFixed(0)} MiB`);

    const db = new BetterSqlite3(dbFile);
    const store = new AdvisoryStore(db);
    const pairs: [string, string, string][] = [];
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < LOOKUPS; k++) {
      const i = rnd(RECORDS);
      const e = ECOS[i % ECOS.length] as (typeof ECOS)[number];
      const vs = e.versions(rnd(1000));
      pairs.push([e.ecosystem, `pkg-${Math.floor(i / 5) % 40_000}`, vs[rnd(vs.length)] as string]);
    }
    const time = (f: (p: [string, string, string]) => unknown): number[] => {
      const out: number[] = [];
      for (const p of pairs) {
        const s = performance.now();
        f(p);
        out.push(performance.now() - s);
      }
      return out.sort((a, b) => a - b);
    };
    let hits = 0;
    const unc = time(([e, n, v]) => {
      const r = store.lookupUncached(e, n, v);
      hits += r.items.length;
    });
    store.lookup(...(pairs[0] as [string, string, string]));
    time(([e, n, v]) => store.lookup(e, n, v));
    const cached = time(([e, n, v]) => store.lookup(e, n, v));
    console.log(`lookup over ${LOOKUPS} (name, version) pairs (${hits} advisories matched): uncached p50 ${pct(unc, 50).toFixed(3)} ms p99 ${pct(unc, 99).toFixed(3)} ms; cached p50 ${pct(cached, 50).toFixed(4)} ms p99 ${pct(cached, 99).toFixed(4)} ms`);
    db.close();

    t0 = performance.now();
    try {
      execFileSync('dpkg', ['--version'], { stdio: 'ignore' });
      const parts = ['0', '1', '1.0', '1.00', '1.0~rc1', '1.0+b1', '1.0a', '1.0.1', '2:1.0', '1:0.9', '1.0-1', '1.0-1~deb12u1', '1.0-1ubuntu2', '1.0~~', '10.2', '1.10', '1.9', '3.0.11-1~deb12u2'];
      const pairsD: [string, string][] = [];
      for (let k = 0; k < 5000; k++) pairsD.push([`${parts[rnd(parts.length)]}${rnd(3) === 0 ? `+${rnd(9)}` : ''}`, `${parts[rnd(parts.length)]}${rnd(3) === 0 ? `~${rnd(9)}` : ''}`]);
      const script = 'while read a b; do if dpkg --compare-versions "$a" lt "$b"; then echo -1; elif dpkg --compare-versions "$a" eq "$b"; then echo 0; else echo 1; fi; done';
      const out = execFileSync('sh', ['-c', script], { input: `${pairsD.map((p) => p.join(' ')).join('\n')}\n`, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] }).trim().split('\n').map(Number);
      const bad = pairsD.filter(([a, b], i) => compareDpkg(a, b) !== out[i]).length;
      console.log(`dpkg --compare-versions: ${pairsD.length} generated pairs, ${bad} disagreements (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch {
      console.log('dpkg --compare-versions: dpkg not installed, skipped');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child-import') await childImport(process.argv[3] as string, process.argv[4] as string);
else await main();
