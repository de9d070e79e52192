// Synthetic flows with CICFlowMeter physics: packets are simulated one by one, and every statistic is computed from them.
import { Random } from '../../core/ml/index.js';
import { deriveInPlace } from '../constraints/validity.js';
import type { FlowTable } from './csv.js';
import { syntheticSchema, SYNTHETIC_FEATURES } from './schema.js';

interface Profile {
  readonly category: string;
  readonly malicious: boolean;
  readonly ports: readonly number[];
  /** Packet counts: log-normal median and spread, forward and backward. */
  readonly fwd: readonly [number, number];
  readonly bwd: readonly [number, number];
  /** Payload-plus-header sizes: mean and sd of forward and backward packets. */
  readonly fwdSize: readonly [number, number];
  readonly bwdSize: readonly [number, number];
  /** Mean gap between packets in microseconds (exponential), and whether gaps are periodic (beacons). */
  readonly gap: number;
  readonly periodic?: boolean;
  readonly syn: number;
  readonly windows: readonly number[];
}

const PROFILES: readonly Profile[] = [
  { category: 'BENIGN-web', malicious: false, ports: [443, 80, 8443], fwd: [9, 0.8], bwd: [12, 0.9], fwdSize: [180, 120], bwdSize: [900, 450], gap: 20_000, syn: 0.9, windows: [29200, 65535, 8192] },
  { category: 'BENIGN-dns', malicious: false, ports: [53], fwd: [1, 0.2], bwd: [1, 0.2], fwdSize: [70, 15], bwdSize: [160, 60], gap: 400, syn: 0, windows: [0] },
  { category: 'BENIGN-bulk', malicious: false, ports: [443, 22, 445], fwd: [60, 1.0], bwd: [120, 1.0], fwdSize: [90, 50], bwdSize: [1300, 200], gap: 3_000, syn: 1, windows: [65535, 29200] },
  { category: 'DoS', malicious: true, ports: [80, 443], fwd: [7, 0.7], bwd: [6, 0.9], fwdSize: [200, 110], bwdSize: [600, 450], gap: 45_000, syn: 0.95, windows: [29200, 65535, 5840] },
  { category: 'BruteForce', malicious: true, ports: [22, 21], fwd: [14, 0.4], bwd: [16, 0.4], fwdSize: [110, 30], bwdSize: [120, 40], gap: 15_000, syn: 1, windows: [29200] },
  { category: 'PortScan', malicious: true, ports: [], fwd: [1, 0.3], bwd: [1, 0.4], fwdSize: [40, 4], bwdSize: [40, 4], gap: 60, syn: 1, windows: [1024, 4096] },
  { category: 'Bot', malicious: true, ports: [8080, 443, 80], fwd: [5, 0.6], bwd: [5, 0.7], fwdSize: [190, 110], bwdSize: [500, 400], gap: 150_000, periodic: true, syn: 0.9, windows: [8192, 29200] },
];

export interface SyntheticFlowOptions {
  /** Share of malicious flows (default 0.3). */
  readonly attackShare?: number;
  readonly seed?: number;
}

const logNormalCount = (rng: Random, median: number, sigma: number, min: number): number => Math.max(min, Math.round(median * Math.exp(sigma * rng.normal())));

/** Mix per capture day (0 Monday .. 4 Friday): Monday benign only; the attack mix and benign sizes drift on Thursday and Friday. */
function attackFor(rng: Random, day: number): Profile {
  const names = day <= 2 ? ['DoS', 'BruteForce', 'DoS', 'Bot'] : ['PortScan', 'Bot', 'DoS', 'PortScan'];
  const name = names[rng.int(names.length)];
  return PROFILES.find((p) => p.category === name)!;
}

function simulate(rng: Random, p: Profile, day: number, out: Float64Array): void {
  const drift = day >= 3 ? 1.25 : 1;
  const nf = logNormalCount(rng, p.fwd[0], p.fwd[1], 1);
  const nb = p.category === 'PortScan' ? (rng.next() < 0.7 ? 1 : 0) : logNormalCount(rng, p.bwd[0], p.bwd[1], p.category === 'BENIGN-dns' ? 1 : 0);
  const n = nf + nb;
  // Packet directions in time order: the first packet is forward, the rest shuffled.
  const dirs: number[] = [1, ...rng.shuffle([...Array(nf - 1).fill(1), ...Array(nb).fill(0)] as number[])];
  let t = 0;
  let lastFwd = 0;
  let fwdIatMax = 0;
  let flowIatMax = 0;
  let lenF = 0;
  let lenB = 0;
  let minF = Infinity;
  let maxF = 0;
  let minB = Infinity;
  let maxB = 0;
  const gapMean = p.gap * (p.malicious ? 1 : drift);
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      const gap = Math.max(1, Math.round(p.periodic ? gapMean * (1 + 0.05 * rng.normal()) : -gapMean * Math.log(1 - rng.next())));
      t += gap;
      flowIatMax = Math.max(flowIatMax, gap);
    }
    const fwd = dirs[k] === 1;
    const [mu, sd] = fwd ? p.fwdSize : p.bwdSize;
    const size = Math.max(0, Math.round((fwd ? mu : mu * (p.malicious ? 1 : drift)) + sd * rng.normal()));
    if (fwd) {
      if (k > 0) fwdIatMax = Math.max(fwdIatMax, t - lastFwd);
      lastFwd = t;
      lenF += size;
      minF = Math.min(minF, size);
      maxF = Math.max(maxF, size);
    } else {
      lenB += size;
      minB = Math.min(minB, size);
      maxB = Math.max(maxB, size);
    }
  }
  const set = (name: string, v: number): void => {
    out[syntheticSchema.index.get(name)!] = v;
  };
  out.fill(0);
  set('Destination Port', p.ports.length > 0 ? p.ports[rng.int(p.ports.length)]! : 1 + rng.int(10_000));
  set('Flow Duration', t);
  set('Total Fwd Packets', nf);
  set('Total Backward Packets', nb);
  set('Total Length of Fwd Packets', lenF);
  set('Total Length of Bwd Packets', lenB);
  set('Fwd Packet Length Max', maxF);
  set('Fwd Packet Length Min', Number.isFinite(minF) ? minF : 0);
  set('Bwd Packet Length Max', maxB);
  set('Bwd Packet Length Min', Number.isFinite(minB) ? minB : 0);
  set('Flow IAT Max', flowIatMax);
  set('Fwd IAT Total', lastFwd);
  set('Fwd IAT Max', fwdIatMax);
  set('Fwd Header Length', nf * (p.syn > 0 ? 32 : 20));
  set('SYN Flag Count', rng.next() < p.syn ? 1 : 0);
  set('ACK Flag Count', p.syn > 0 && n > 1 ? 1 : 0);
  set('Init_Win_bytes_forward', p.windows[rng.int(p.windows.length)]!);
  set('Init_Win_bytes_backward', nb > 0 && p.syn > 0 ? [65160, 28960, 8192][rng.int(3)]! : 0);
  deriveInPlace(syntheticSchema, out);
}

/** `n` synthetic flows over Monday to Friday with their labels, categories and capture days. */
export function syntheticFlows(n: number, opts: SyntheticFlowOptions = {}): FlowTable {
  const rng = new Random(opts.seed ?? 0);
  const share = opts.attackShare ?? 0.3;
  const C = SYNTHETIC_FEATURES.length;
  const data = new Float64Array(n * C);
  const y = new Uint8Array(n);
  const day = new Int8Array(n);
  const category: string[] = [];
  const benign = PROFILES.filter((p) => !p.malicious);
  const row = new Float64Array(C);
  for (let i = 0; i < n; i++) {
    const d = rng.int(5);
    const p = d > 0 && rng.next() < share * 1.25 ? attackFor(rng, d) : benign[[0, 0, 0, 1, 1, 2][rng.int(6)]!]!;
    simulate(rng, p, d, row);
    data.set(row, i * C);
    y[i] = p.malicious ? 1 : 0;
    day[i] = d;
    category.push(p.malicious ? p.category : 'BENIGN');
  }
  return {
    schema: syntheticSchema,
    format: 'synthetic',
    x: { rows: n, cols: C, data },
    y,
    category,
    day,
    missingColumns: [],
    cleaning: { nonFinite: 0, negative: 0, blank: 0, unreadable: 0 },
    rows: n,
    skipped: 0,
    warnings: [],
    truncated: false,
  };
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The CSV `flowdet generate` writes: the synthetic features, Label (BENIGN or the attack) and Day; loads back as `synthetic`. */
export function syntheticCsv(table: FlowTable): string {
  const lines = [[...SYNTHETIC_FEATURES, 'Label', 'Day'].join(',')];
  const C = table.x.cols;
  for (let i = 0; i < table.rows; i++) {
    const cells: string[] = [];
    for (let k = 0; k < C; k++) cells.push(String(table.x.data[i * C + k]));
    cells.push(table.category[i]!, DAY_NAMES[table.day[i]!] ?? '');
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}
