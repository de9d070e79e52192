// Mines the dataset relations from real rows: every candidate (orderings within a statistic family, mean = total /
// count, header bytes per packet, flag counts <= packets, bytes per packet within the protocol's bounds, ...) is
// checked on every labelled row of the corpus samples; those that hold on all rows of both datasets' files are kept.
// Run: node --import tsx engines/flowdet/constraints/mine.ts [corpora dir]   (writes mined-relations.json here)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readFlowCsvFile, type FlowTable } from '../data/csv.js';
import { UNSW_VOCABULARY } from '../data/schema.js';
import { applies, relationHolds, type Condition, type RelationSpec, type Term } from './relations.js';

/** Tolerance a mined relation must hold within on the recorded rows (the CSVs round values of 1e7 and more to 1 %). */
export const MINE_ABS = 1e-6;
export const MINE_REL = 0.01;
/** A relation must apply to at least this many rows to be kept (a protocol the samples barely have proves nothing). */
export const MIN_APPLIED_ROWS = 20;

/** The corpus files mined (every row is labelled), relative to the corpora folder. */
export const MINED_FILES: Readonly<Record<'cicids2017' | 'unsw_nb15', readonly string[]>> = {
  cicids2017: ['flows/cicids2017/CICIDS2017_sample.labelled6311.csv', 'flows/cicids2017/Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv'],
  unsw_nb15: ['flows/unsw-nb15/UNSW-NB15_1.sampled7000.csv', 'flows/unsw-nb15/UNSW-NB15_raw49.sample2000.csv', 'flows/unsw-nb15/UNSW_NB15_testing-set.head40.csv'],
};

const one = (f: string): Term => [1, f];
const gt = (terms: Term[], value: number): Condition => ({ left: terms, op: '>', value });

/** Candidate relations for CICFlowMeter features (the grammar; mining decides which hold). */
export function cicCandidates(): RelationSpec[] {
  const out: RelationSpec[] = [];
  const le = (id: string, description: string, left: Term[], right: Term[], when?: Condition[]): void => {
    out.push({ id, dataset: 'cicids2017', description, kind: 'le', left, right, ...(when ? { when } : {}) });
  };
  const eq = (id: string, description: string, left: Term[], right: Term[], when?: Condition[]): void => {
    out.push({ id, dataset: 'cicids2017', description, kind: 'eq', left, right, ...(when ? { when } : {}) });
  };
  const F = 'Total Fwd Packets';
  const B = 'Total Backward Packets';
  const families: [string, string, string, string, Condition[] | undefined][] = [
    ['fwd_len', 'Fwd Packet Length Min', 'Fwd Packet Length Mean', 'Fwd Packet Length Max', [gt([one(F)], 0)]],
    ['bwd_len', 'Bwd Packet Length Min', 'Bwd Packet Length Mean', 'Bwd Packet Length Max', [gt([one(B)], 0)]],
    ['pkt_len', 'Min Packet Length', 'Packet Length Mean', 'Max Packet Length', undefined],
    ['flow_iat', 'Flow IAT Min', 'Flow IAT Mean', 'Flow IAT Max', [gt([one(F), one(B)], 1)]],
    ['fwd_iat', 'Fwd IAT Min', 'Fwd IAT Mean', 'Fwd IAT Max', [gt([one(F)], 1)]],
    ['bwd_iat', 'Bwd IAT Min', 'Bwd IAT Mean', 'Bwd IAT Max', [gt([one(B)], 1)]],
    ['active', 'Active Min', 'Active Mean', 'Active Max', undefined],
    ['idle', 'Idle Min', 'Idle Mean', 'Idle Max', undefined],
  ];
  for (const [id, min, mean, max, when] of families) {
    le(`${id}_min_le_mean`, `${min} <= ${mean}`, [one(min)], [one(mean)], when);
    le(`${id}_mean_le_max`, `${mean} <= ${max}`, [one(mean)], [one(max)], when);
    le(`${id}_min_le_max`, `${min} <= ${max}`, [one(min)], [one(max)], when);
  }
  // mean = total / count
  eq('fwd_len_mean_total', 'Fwd Packet Length Mean x Total Fwd Packets = Total Length of Fwd Packets', [[1, 'Fwd Packet Length Mean', F]], [one('Total Length of Fwd Packets')]);
  eq('bwd_len_mean_total', 'Bwd Packet Length Mean x Total Backward Packets = Total Length of Bwd Packets', [[1, 'Bwd Packet Length Mean', B]], [one('Total Length of Bwd Packets')]);
  eq('fwd_iat_mean_total', 'Fwd IAT Mean x (Total Fwd Packets - 1) = Fwd IAT Total', [[1, 'Fwd IAT Mean', F], [-1, 'Fwd IAT Mean']], [one('Fwd IAT Total')], [gt([one(F)], 1)]);
  eq('bwd_iat_mean_total', 'Bwd IAT Mean x (Total Backward Packets - 1) = Bwd IAT Total', [[1, 'Bwd IAT Mean', B], [-1, 'Bwd IAT Mean']], [one('Bwd IAT Total')], [gt([one(B)], 1)]);
  eq('flow_iat_mean_duration', 'Flow IAT Mean x (packets - 1) = Flow Duration', [[1, 'Flow IAT Mean', F], [1, 'Flow IAT Mean', B], [-1, 'Flow IAT Mean']], [one('Flow Duration')], [gt([one(F), one(B)], 1)]);
  // average packet size = bytes / packets (CICFlowMeter's own variants are candidates too)
  eq('avg_packet_size_bytes_per_packet', 'Average Packet Size x (Total Fwd Packets + Total Backward Packets) = Total Length of Fwd Packets + Total Length of Bwd Packets', [[1, 'Average Packet Size', F], [1, 'Average Packet Size', B]], [one('Total Length of Fwd Packets'), one('Total Length of Bwd Packets')]);
  eq('avg_packet_size_bytes_per_gap', 'Average Packet Size x (packets - 1) = Total Length of Fwd Packets + Total Length of Bwd Packets', [[1, 'Average Packet Size', F], [1, 'Average Packet Size', B], [-1, 'Average Packet Size']], [one('Total Length of Fwd Packets'), one('Total Length of Bwd Packets')], [gt([one(F), one(B)], 1)]);
  eq('pkt_len_mean_bytes_per_packet', 'Packet Length Mean x (packets) = total bytes', [[1, 'Packet Length Mean', F], [1, 'Packet Length Mean', B]], [one('Total Length of Fwd Packets'), one('Total Length of Bwd Packets')]);
  eq('pkt_len_mean_bytes_per_packet_plus_one', 'Packet Length Mean x (packets + 1) = total bytes', [[1, 'Packet Length Mean', F], [1, 'Packet Length Mean', B], [1, 'Packet Length Mean']], [one('Total Length of Fwd Packets'), one('Total Length of Bwd Packets')]);
  // CICFlowMeter counts the first packet's length twice in the packet-length sum S: Packet Length Mean = S / (n + 1),
  // Average Packet Size = S / n, so S - bytes is one forward packet's length.
  eq('avg_packet_size_vs_pkt_len_mean', 'Average Packet Size x packets = Packet Length Mean x (packets + 1)', [[1, 'Average Packet Size', F], [1, 'Average Packet Size', B]], [[1, 'Packet Length Mean', F], [1, 'Packet Length Mean', B], [1, 'Packet Length Mean']]);
  le('avg_packet_size_extra_ge_fwd_min', 'Fwd Packet Length Min <= Average Packet Size x packets - bytes (the first packet counted twice)', [one('Fwd Packet Length Min')], [[1, 'Average Packet Size', F], [1, 'Average Packet Size', B], [-1, 'Total Length of Fwd Packets'], [-1, 'Total Length of Bwd Packets']], [gt([one(F)], 0)]);
  le('avg_packet_size_extra_le_fwd_max', 'Average Packet Size x packets - bytes <= Fwd Packet Length Max (the first packet counted twice)', [[1, 'Average Packet Size', F], [1, 'Average Packet Size', B], [-1, 'Total Length of Fwd Packets'], [-1, 'Total Length of Bwd Packets']], [one('Fwd Packet Length Max')], [gt([one(F)], 0)]);
  le('avg_packet_size_le_max', 'Average Packet Size <= Max Packet Length', [one('Average Packet Size')], [one('Max Packet Length')]);
  le('pkt_len_mean_le_avg_packet_size', 'Packet Length Mean <= Average Packet Size', [one('Packet Length Mean')], [one('Average Packet Size')]);
  // totals and maxima against the duration
  le('flow_iat_max_le_duration', 'Flow IAT Max <= Flow Duration', [one('Flow IAT Max')], [one('Flow Duration')]);
  le('fwd_iat_total_le_duration', 'Fwd IAT Total <= Flow Duration', [one('Fwd IAT Total')], [one('Flow Duration')]);
  le('bwd_iat_total_le_duration', 'Bwd IAT Total <= Flow Duration', [one('Bwd IAT Total')], [one('Flow Duration')]);
  le('fwd_iat_max_le_total', 'Fwd IAT Max <= Fwd IAT Total', [one('Fwd IAT Max')], [one('Fwd IAT Total')]);
  le('bwd_iat_max_le_total', 'Bwd IAT Max <= Bwd IAT Total', [one('Bwd IAT Max')], [one('Bwd IAT Total')]);
  le('fwd_iat_max_le_flow_iat_max', 'Fwd IAT Max <= Flow IAT Max', [one('Fwd IAT Max')], [one('Flow IAT Max')]);
  le('flow_iat_min_le_fwd_iat_min', 'Flow IAT Min <= Fwd IAT Min', [one('Flow IAT Min')], [one('Fwd IAT Min')], [gt([one(F)], 1)]);
  le('active_max_le_duration', 'Active Max <= Flow Duration', [one('Active Max')], [one('Flow Duration')]);
  le('idle_max_le_duration', 'Idle Max <= Flow Duration', [one('Idle Max')], [one('Flow Duration')]);
  // header bytes per packet
  for (const h of [40, 32, 20, 8]) {
    le(`fwd_header_ge_${h}_per_packet`, `Fwd Header Length >= ${h} x Total Fwd Packets`, [[h, F]], [one('Fwd Header Length')]);
    le(`bwd_header_ge_${h}_per_packet`, `Bwd Header Length >= ${h} x Total Backward Packets`, [[h, B]], [one('Bwd Header Length')]);
  }
  le('fwd_header_ge_min_segment_per_packet', 'Fwd Header Length >= min_seg_size_forward x Total Fwd Packets', [[1, 'min_seg_size_forward', F]], [one('Fwd Header Length')]);
  le('fwd_header_le_60_per_packet', 'Fwd Header Length <= 60 x Total Fwd Packets (the largest TCP header)', [one('Fwd Header Length')], [[60, F]]);
  // bytes per packet
  le('fwd_len_total_ge_count_x_min', 'Total Length of Fwd Packets >= Total Fwd Packets x Fwd Packet Length Min', [[1, F, 'Fwd Packet Length Min']], [one('Total Length of Fwd Packets')]);
  le('fwd_len_total_le_count_x_max', 'Total Length of Fwd Packets <= Total Fwd Packets x Fwd Packet Length Max', [one('Total Length of Fwd Packets')], [[1, F, 'Fwd Packet Length Max']]);
  le('bwd_len_total_le_count_x_max', 'Total Length of Bwd Packets <= Total Backward Packets x Bwd Packet Length Max', [one('Total Length of Bwd Packets')], [[1, B, 'Bwd Packet Length Max']]);
  le('fwd_len_max_le_65535', 'Fwd Packet Length Max <= 65535 (an IP packet)', [one('Fwd Packet Length Max')], [[65535]]);
  le('bwd_len_max_le_65535', 'Bwd Packet Length Max <= 65535 (an IP packet)', [one('Bwd Packet Length Max')], [[65535]]);
  le('min_packet_le_fwd_min', 'Min Packet Length <= Fwd Packet Length Min', [one('Min Packet Length')], [one('Fwd Packet Length Min')], [gt([one(F)], 0)]);
  le('fwd_max_le_max_packet', 'Fwd Packet Length Max <= Max Packet Length', [one('Fwd Packet Length Max')], [one('Max Packet Length')]);
  // flag counts and data packets <= packets
  for (const fl of ['Fwd PSH Flags', 'Fwd URG Flags', 'act_data_pkt_fwd']) le(`${fl.toLowerCase().replace(/[^a-z]+/g, '_')}_le_fwd_packets`, `${fl} <= Total Fwd Packets`, [one(fl)], [one(F)]);
  for (const fl of ['Bwd PSH Flags', 'Bwd URG Flags']) le(`${fl.toLowerCase().replace(/[^a-z]+/g, '_')}_le_bwd_packets`, `${fl} <= Total Backward Packets`, [one(fl)], [one(B)]);
  for (const fl of ['FIN Flag Count', 'SYN Flag Count', 'RST Flag Count', 'PSH Flag Count', 'ACK Flag Count', 'URG Flag Count', 'CWE Flag Count', 'ECE Flag Count'])
    le(`${fl.toLowerCase().replace(/[^a-z]+/g, '_')}le_packets`, `${fl} <= Total Fwd Packets + Total Backward Packets`, [one(fl)], [one(F), one(B)]);
  return out;
}

/** Candidate relations for UNSW-NB15 (official names). */
export function unswCandidates(): RelationSpec[] {
  const out: RelationSpec[] = [];
  const le = (id: string, description: string, left: Term[], right: Term[], when?: Condition[]): void => {
    out.push({ id, dataset: 'unsw_nb15', description, kind: 'le', left, right, ...(when ? { when } : {}) });
  };
  le('sloss_le_spkts', 'sloss <= spkts (retransmitted packets are packets)', [one('sloss')], [one('spkts')]);
  le('dloss_le_dpkts', 'dloss <= dpkts', [one('dloss')], [one('dpkts')]);
  le('synack_le_tcprtt', 'synack <= tcprtt', [one('synack')], [one('tcprtt')]);
  le('ackdat_le_tcprtt', 'ackdat <= tcprtt', [one('ackdat')], [one('tcprtt')]);
  le('smean_le_1514', 'smean <= 1514 (an Ethernet frame)', [one('smean')], [[1514]]);
  le('dmean_le_1514', 'dmean <= 1514', [one('dmean')], [[1514]]);
  le('sinpkt_gaps_le_duration', 'sinpkt x (spkts - 1) <= dur x 1000 (sinpkt in ms: the gaps fit in the duration)', [[1, 'sinpkt', 'spkts'], [-1, 'sinpkt']], [[1000, 'dur']], [gt([one('spkts')], 1)]);
  le('dinpkt_gaps_le_duration', 'dinpkt x (dpkts - 1) <= dur x 1000', [[1, 'dinpkt', 'dpkts'], [-1, 'dinpkt']], [[1000, 'dur']], [gt([one('dpkts')], 1)]);
  le('response_body_le_dbytes', 'response_body_len <= dbytes', [one('response_body_len')], [one('dbytes')]);
  le('trans_depth_le_spkts', 'trans_depth <= spkts', [one('trans_depth')], [one('spkts')]);
  // Bytes per packet within the protocol's bounds: a packet carries at least its headers and at most one frame.
  const protos = UNSW_VOCABULARY['proto']!;
  for (const [k, proto] of protos.entries()) {
    const when = [{ left: [one('proto')], op: '==' as const, value: k + 1 }, gt([one('spkts')], 0)];
    for (const lo of [60, 46, 28, 24, 20]) le(`sbytes_ge_${lo}_per_packet_${proto}`, `${proto}: sbytes >= ${lo} x spkts`, [[lo, 'spkts']], [one('sbytes')], when);
    le(`sbytes_le_1514_per_packet_${proto}`, `${proto}: sbytes <= 1514 x spkts`, [one('sbytes')], [[1514, 'spkts']], when);
  }
  for (const lo of [60, 46, 28, 24, 20]) le(`sbytes_ge_${lo}_per_packet`, `sbytes >= ${lo} x spkts (any protocol)`, [[lo, 'spkts']], [one('sbytes')]);
  for (const lo of [60, 46, 28, 24, 20]) le(`dbytes_ge_${lo}_per_packet`, `dbytes >= ${lo} x dpkts (any protocol)`, [[lo, 'dpkts']], [one('dbytes')]);
  le('sbytes_le_1514_per_packet', 'sbytes <= 1514 x spkts', [one('sbytes')], [[1514, 'spkts']]);
  le('dbytes_le_1514_per_packet', 'dbytes <= 1514 x dpkts', [one('dbytes')], [[1514, 'dpkts']]);
  return out;
}

export interface MinedRelation extends RelationSpec {
  /** Rows it was checked on (where it applies) across the dataset's files. */
  readonly rows_applied: number;
}

export interface MiningResult {
  readonly format: 'vitrine-flowdet-mined-relations';
  readonly version: 1;
  readonly tolerance: { readonly abs: number; readonly rel: number };
  readonly files: typeof MINED_FILES;
  readonly rows: Readonly<Record<string, number>>;
  readonly relations: readonly MinedRelation[];
  /** Candidates that failed on at least one row, with the count of failing rows. */
  readonly rejected: readonly { readonly id: string; readonly failing_rows: number; readonly applied_rows: number }[];
}

/** Checks every candidate on every row of the tables (recorded values, as loaded). */
export function mine(tables: Readonly<Record<'cicids2017' | 'unsw_nb15', readonly FlowTable[]>>): MiningResult {
  const relations: MinedRelation[] = [];
  const rejected: { id: string; failing_rows: number; applied_rows: number }[] = [];
  const rows: Record<string, number> = {};
  for (const [dataset, candidates] of [['cicids2017', cicCandidates()], ['unsw_nb15', unswCandidates()]] as const) {
    const ts = tables[dataset];
    rows[dataset] = ts.reduce((s, t) => s + t.rows, 0);
    const kept: MinedRelation[] = [];
    for (const c of candidates) {
      let failing = 0;
      let applied = 0;
      for (const t of ts) {
        const C = t.x.cols;
        for (let i = 0; i < t.rows; i++) {
          const g = (name: string): number => {
            const k = t.schema.index.get(name);
            if (k === undefined) throw new Error(`unknown feature ${name}`);
            return t.x.data[i * C + k]!;
          };
          if (!relationHolds(c, g, MINE_ABS, MINE_REL)) failing++;
          else if (applies(c, g)) applied++;
        }
      }
      if (failing === 0 && applied >= MIN_APPLIED_ROWS) kept.push({ ...c, rows_applied: applied });
      else rejected.push({ id: c.id, failing_rows: failing, applied_rows: applied });
    }
    // Of several bounds of one kind keep only the tightest that held (they are listed tightest first).
    const seen = new Set<string>();
    for (const r of kept) {
      const family = r.id.replace(/_(ge|le)_\d+_per_packet/, '_$1_N_per_packet');
      if (/_N_per_packet/.test(family)) {
        if (seen.has(family)) continue;
        seen.add(family);
      }
      relations.push(r);
    }
  }
  return { format: 'vitrine-flowdet-mined-relations', version: 1, tolerance: { abs: MINE_ABS, rel: MINE_REL }, files: MINED_FILES, rows, relations, rejected };
}

export async function mineCorpora(corporaDir: string): Promise<MiningResult> {
  const load = async (files: readonly string[]): Promise<FlowTable[]> => Promise.all(files.map((f) => readFlowCsvFile(path.join(corporaDir, f))));
  return mine({ cicids2017: await load(MINED_FILES.cicids2017), unsw_nb15: await load(MINED_FILES.unsw_nb15) });
}

export const MINED_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mined-relations.json');

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const dir = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'corpora');
  const r = await mineCorpora(dir);
  writeFileSync(MINED_FILE, `${JSON.stringify(r, null, 1)}\n`);
  process.stdout.write(`kept ${r.relations.length} relations, rejected ${r.rejected.length}\n${r.rejected.map((x) => `  rejected ${x.id}: fails on ${x.failing_rows} rows, applies to ${x.applied_rows}`).join('\n')}\n`);
}
