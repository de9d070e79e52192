// Feature schemas of the flow datasets: each feature's attacker class, integrality, derivation formula, and the dataset relations.
import MINED from '../constraints/mined-relations.json' with { type: 'json' };
import { featuresOf, relationHolds, type RelationSpec } from '../constraints/relations.js';

/** What an attacker can do to a feature (spec part 3, "Flow detector service"). */
export type FeatureClass = 'up' | 'free' | 'derived' | 'fixed';

export type Getter = (name: string) => number;

export interface FeatureSpec {
  readonly name: string;
  readonly cls: FeatureClass;
  /** Must stay integral (the spec's `integer` class; combined with up, free or fixed). */
  readonly integer: boolean;
  /** Closed range of a `free` feature. */
  readonly range?: readonly [number, number];
  /** Human-readable formula of a derived feature. */
  readonly formula?: string;
  readonly derive?: (g: Getter) => number;
  /**
   * Looser check used on recorded data (relTolerance > 0) where the CSV rounded an input of the formula,
   * for example UNSW-NB15's `dur` printed with six decimals; returns whether `value` is consistent.
   */
  readonly recorded?: (g: Getter, value: number, relTolerance: number) => boolean;
  /** Categorical text column encoded as an integer code (vocabulary index + 1; 0 = other). */
  readonly vocabulary?: readonly string[];
  /**
   * A fixed feature that summarises the packets without a closed formula in the base features, but moves with them
   * when the attacker adds packets or bytes: its value for a perturbed row given the original (Average Packet Size).
   */
  readonly follows?: { readonly formula: string; readonly value: (g: Getter, original: Getter) => number };
}

export interface Relation {
  readonly id: string;
  readonly description: string;
  readonly holds: (g: Getter, tol: number, rel: number) => boolean;
  /** Mined from the real corpus rows (constraints/mined-relations.json) rather than written by hand. */
  readonly mined?: boolean;
}

/** The relations mined from every labelled corpus row of the dataset whose features the schema has. */
export function minedRelations(dataset: 'cicids2017' | 'unsw_nb15', has: (n: string) => boolean): RelationSpec[] {
  return (MINED.relations as unknown as RelationSpec[]).filter((r) => r.dataset === dataset && featuresOf(r).every(has));
}

function asRelations(specs: readonly RelationSpec[], skip: ReadonlySet<string>): Relation[] {
  // Checked within the tolerance they were mined with (the recorded values they relate are rounded to 1 %).
  return specs.filter((r) => !skip.has(r.id)).map((r) => ({ id: r.id, description: `${r.description} (mined)`, holds: (g, tol, rel) => relationHolds(r, g, Math.max(tol, MINED.tolerance.abs), Math.max(rel, MINED.tolerance.rel)), mined: true }));
}

export type DatasetId = 'synthetic' | 'cicids2017' | 'unsw_nb15';

export interface FlowSchema {
  readonly id: DatasetId;
  readonly version: number;
  readonly features: readonly FeatureSpec[];
  readonly index: ReadonlyMap<string, number>;
  readonly relations: readonly Relation[];
  /** Relative tolerance the recorded CSVs need (values rounded when written); 0 for exactly computed rows. */
  readonly dataRelTolerance: number;
  /** Repairs an adversarial row in place after the per-class clipping so the relations hold (only moves up/free features). */
  readonly repair: (row: Float64Array, original: Float64Array) => void;
  readonly notes: readonly string[];
}

/** Absolute-plus-relative closeness used by every derived and relation check. */
export function close(a: number, b: number, tol: number, rel = 0): boolean {
  return Math.abs(a - b) <= tol + rel * Math.max(Math.abs(a), Math.abs(b));
}

/** a <= b up to the tolerances (a small relative slack for float rounding of computed means). */
export function leq(a: number, b: number, tol: number, rel = 0): boolean {
  return a <= b + tol + Math.max(rel, 1e-12) * Math.max(Math.abs(a), Math.abs(b));
}

const div = (a: number, b: number): number => (b > 0 ? a / b : 0);

// ---------------------------------------------------------------------------------------------------------------
// CICIDS2017 (CICFlowMeter, MachineLearningCVE CSVs): names trimmed, the second `Fwd Header Length` renamed `.1`.

export const CIC_FEATURES: readonly string[] = [
  'Destination Port', 'Flow Duration', 'Total Fwd Packets', 'Total Backward Packets', 'Total Length of Fwd Packets',
  'Total Length of Bwd Packets', 'Fwd Packet Length Max', 'Fwd Packet Length Min', 'Fwd Packet Length Mean',
  'Fwd Packet Length Std', 'Bwd Packet Length Max', 'Bwd Packet Length Min', 'Bwd Packet Length Mean',
  'Bwd Packet Length Std', 'Flow Bytes/s', 'Flow Packets/s', 'Flow IAT Mean', 'Flow IAT Std', 'Flow IAT Max',
  'Flow IAT Min', 'Fwd IAT Total', 'Fwd IAT Mean', 'Fwd IAT Std', 'Fwd IAT Max', 'Fwd IAT Min', 'Bwd IAT Total',
  'Bwd IAT Mean', 'Bwd IAT Std', 'Bwd IAT Max', 'Bwd IAT Min', 'Fwd PSH Flags', 'Bwd PSH Flags', 'Fwd URG Flags',
  'Bwd URG Flags', 'Fwd Header Length', 'Bwd Header Length', 'Fwd Packets/s', 'Bwd Packets/s', 'Min Packet Length',
  'Max Packet Length', 'Packet Length Mean', 'Packet Length Std', 'Packet Length Variance', 'FIN Flag Count',
  'SYN Flag Count', 'RST Flag Count', 'PSH Flag Count', 'ACK Flag Count', 'URG Flag Count', 'CWE Flag Count',
  'ECE Flag Count', 'Down/Up Ratio', 'Average Packet Size', 'Avg Fwd Segment Size', 'Avg Bwd Segment Size',
  'Fwd Header Length.1', 'Fwd Avg Bytes/Bulk', 'Fwd Avg Packets/Bulk', 'Fwd Avg Bulk Rate', 'Bwd Avg Bytes/Bulk',
  'Bwd Avg Packets/Bulk', 'Bwd Avg Bulk Rate', 'Subflow Fwd Packets', 'Subflow Fwd Bytes', 'Subflow Bwd Packets',
  'Subflow Bwd Bytes', 'Init_Win_bytes_forward', 'Init_Win_bytes_backward', 'act_data_pkt_fwd',
  'min_seg_size_forward', 'Active Mean', 'Active Std', 'Active Max', 'Active Min', 'Idle Mean', 'Idle Std', 'Idle Max',
  'Idle Min',
];

const seconds = (g: Getter): number => g('Flow Duration') / 1e6;

/** CICFlowMeter features the sender controls (its own packets, padding, delays), all only increasing. */
const CIC_UP_INTEGER = ['Flow Duration', 'Total Fwd Packets', 'Total Length of Fwd Packets', 'Fwd Packet Length Max', 'Fwd Header Length', 'Fwd IAT Total', 'Fwd IAT Max', 'Flow IAT Max'];

/** CICFlowMeter formulas that every row of the real CSVs satisfies (checked on the corpus samples). */
const CIC_DERIVED: Readonly<Record<string, { formula: string; derive: (g: Getter) => number }>> = {
  'Fwd Packet Length Mean': { formula: 'Total Length of Fwd Packets / Total Fwd Packets (0 without packets)', derive: (g) => div(g('Total Length of Fwd Packets'), g('Total Fwd Packets')) },
  'Bwd Packet Length Mean': { formula: 'Total Length of Bwd Packets / Total Backward Packets (0 without packets)', derive: (g) => div(g('Total Length of Bwd Packets'), g('Total Backward Packets')) },
  'Avg Fwd Segment Size': { formula: 'Fwd Packet Length Mean', derive: (g) => div(g('Total Length of Fwd Packets'), g('Total Fwd Packets')) },
  'Avg Bwd Segment Size': { formula: 'Bwd Packet Length Mean', derive: (g) => div(g('Total Length of Bwd Packets'), g('Total Backward Packets')) },
  'Fwd Header Length.1': { formula: 'Fwd Header Length', derive: (g) => g('Fwd Header Length') },
  'Flow Bytes/s': { formula: '(Total Length of Fwd Packets + Total Length of Bwd Packets) / (Flow Duration / 1e6); 0 when the duration is 0', derive: (g) => div(g('Total Length of Fwd Packets') + g('Total Length of Bwd Packets'), seconds(g)) },
  'Flow Packets/s': { formula: '(Total Fwd Packets + Total Backward Packets) / (Flow Duration / 1e6); 0 when the duration is 0', derive: (g) => div(g('Total Fwd Packets') + g('Total Backward Packets'), seconds(g)) },
  'Fwd Packets/s': { formula: 'Total Fwd Packets / (Flow Duration / 1e6); 0 when the duration is 0', derive: (g) => div(g('Total Fwd Packets'), seconds(g)) },
  'Bwd Packets/s': { formula: 'Total Backward Packets / (Flow Duration / 1e6); 0 when the duration is 0', derive: (g) => div(g('Total Backward Packets'), seconds(g)) },
  'Packet Length Variance': { formula: 'Packet Length Std squared', derive: (g) => g('Packet Length Std') ** 2 },
  'Max Packet Length': { formula: 'max(Fwd Packet Length Max, Bwd Packet Length Max)', derive: (g) => Math.max(g('Fwd Packet Length Max'), g('Bwd Packet Length Max')) },
  'Subflow Fwd Packets': { formula: 'Total Fwd Packets', derive: (g) => g('Total Fwd Packets') },
  'Subflow Fwd Bytes': { formula: 'Total Length of Fwd Packets', derive: (g) => g('Total Length of Fwd Packets') },
  'Subflow Bwd Packets': { formula: 'Total Backward Packets', derive: (g) => g('Total Backward Packets') },
  'Subflow Bwd Bytes': { formula: 'Total Length of Bwd Packets', derive: (g) => g('Total Length of Bwd Packets') },
  'Down/Up Ratio': { formula: 'floor(Total Backward Packets / Total Fwd Packets); 0 without forward packets', derive: (g) => (g('Total Fwd Packets') > 0 ? Math.floor(g('Total Backward Packets') / g('Total Fwd Packets')) : 0) },
  'Flow IAT Mean': { formula: 'Flow Duration / (Total Fwd Packets + Total Backward Packets - 1); 0 with fewer than 2 packets', derive: (g) => { const n = g('Total Fwd Packets') + g('Total Backward Packets'); return n > 1 ? g('Flow Duration') / (n - 1) : 0; } },
  'Fwd IAT Mean': { formula: 'Fwd IAT Total / (Total Fwd Packets - 1); 0 with fewer than 2 forward packets', derive: (g) => (g('Total Fwd Packets') > 1 ? g('Fwd IAT Total') / (g('Total Fwd Packets') - 1) : 0) },
};

/** Features whose recorded values are integers in CICFlowMeter output. */
const CIC_INTEGRAL = new Set([
  'Destination Port', 'Flow Duration', 'Total Fwd Packets', 'Total Backward Packets', 'Total Length of Fwd Packets', 'Total Length of Bwd Packets',
  'Fwd Packet Length Max', 'Fwd Packet Length Min', 'Bwd Packet Length Max', 'Bwd Packet Length Min', 'Flow IAT Max', 'Flow IAT Min', 'Fwd IAT Total',
  'Fwd IAT Max', 'Fwd IAT Min', 'Bwd IAT Total', 'Bwd IAT Max', 'Bwd IAT Min', 'Fwd PSH Flags', 'Bwd PSH Flags', 'Fwd URG Flags', 'Bwd URG Flags',
  'Fwd Header Length', 'Bwd Header Length', 'Min Packet Length', 'Max Packet Length', 'FIN Flag Count', 'SYN Flag Count', 'RST Flag Count',
  'PSH Flag Count', 'ACK Flag Count', 'URG Flag Count', 'CWE Flag Count', 'ECE Flag Count', 'Down/Up Ratio', 'Fwd Header Length.1',
  'Subflow Fwd Packets', 'Subflow Fwd Bytes', 'Subflow Bwd Packets', 'Subflow Bwd Bytes', 'Init_Win_bytes_forward', 'Init_Win_bytes_backward',
  'act_data_pkt_fwd', 'min_seg_size_forward',
]);

function cicRelations(has: (n: string) => boolean): Relation[] {
  const out: Relation[] = [];
  const within = (id: string, mean: string, min: string, max: string, count: string): void => {
    if (![mean, min, max, count].every(has)) return;
    out.push({
      id,
      description: `${min} <= ${mean} <= ${max} when ${count} > 0`,
      holds: (g, tol, rel) => g(count) <= 0 || (leq(g(min), g(mean), tol, rel) && leq(g(mean), g(max), tol, rel)),
    });
  };
  within('fwd_mean_in_range', 'Fwd Packet Length Mean', 'Fwd Packet Length Min', 'Fwd Packet Length Max', 'Total Fwd Packets');
  within('bwd_mean_in_range', 'Bwd Packet Length Mean', 'Bwd Packet Length Min', 'Bwd Packet Length Max', 'Total Backward Packets');
  const le = (id: string, a: string, b: string): void => {
    if (has(a) && has(b)) out.push({ id, description: `${a} <= ${b}`, holds: (g, tol, rel) => leq(g(a), g(b), tol, rel) });
  };
  le('flow_iat_max_le_duration', 'Flow IAT Max', 'Flow Duration');
  le('fwd_iat_total_le_duration', 'Fwd IAT Total', 'Flow Duration');
  le('fwd_iat_max_le_total', 'Fwd IAT Max', 'Fwd IAT Total');
  le('flow_iat_mean_le_max', 'Flow IAT Mean', 'Flow IAT Max');
  le('fwd_iat_mean_le_max', 'Fwd IAT Mean', 'Fwd IAT Max');
  return [...out, ...asRelations(minedRelations('cicids2017', has), new Set(out.map((r) => r.id)))];
}

/** Moves up-features so CICFlowMeter's orderings and the mined physics hold again after a perturbation (never below the original). */
function cicRepair(index: ReadonlyMap<string, number>): (row: Float64Array, original: Float64Array) => void {
  const i = (n: string): number => index.get(n) ?? -1;
  const F = i('Total Fwd Packets');
  const LF = i('Total Length of Fwd Packets');
  const MIN = i('Fwd Packet Length Min');
  const MAX = i('Fwd Packet Length Max');
  const DUR = i('Flow Duration');
  const B = i('Total Backward Packets');
  const FIT = i('Fwd IAT Total');
  const FIM = i('Fwd IAT Max');
  const IM = i('Flow IAT Max');
  const FHL = i('Fwd Header Length');
  const MINSEG = i('min_seg_size_forward');
  const FIMIN = i('Fwd IAT Min');
  const FLMIN = i('Flow IAT Min');
  return (r, orig) => {
    const o = (k: number): number => orig[k]!;
    if (F >= 0 && LF >= 0 && r[F]! > 0) {
      if (MIN >= 0) r[LF] = Math.max(r[LF]!, r[F]! * r[MIN]!);
      if (MAX >= 0) r[MAX] = Math.max(r[MAX]!, Math.ceil(r[LF]! / r[F]!));
    }
    if (FIT >= 0 && FIM >= 0) r[FIT] = Math.max(r[FIT]!, r[FIM]!);
    if (FIT >= 0 && FIM >= 0 && F >= 0 && r[F]! > 1) r[FIM] = Math.max(r[FIM]!, Math.ceil(r[FIT]! / (r[F]! - 1)));
    // Mined physics: at least 20 header bytes (and the flow's smallest header) per forward packet, at most 60;
    // packets of at most 65,535 bytes; the mean gaps no shorter than the smallest gap.
    if (FHL >= 0 && F >= 0) {
      const per = Math.max(20, MINSEG >= 0 ? r[MINSEG]! : 0);
      r[FHL] = Math.max(r[FHL]!, per * r[F]!);
      r[FHL] = Math.max(o(FHL), Math.min(r[FHL]!, 60 * r[F]!));
    }
    if (LF >= 0 && F >= 0) r[LF] = Math.max(o(LF), Math.min(r[LF]!, 65535 * r[F]!));
    if (MAX >= 0) r[MAX] = Math.max(o(MAX), Math.min(r[MAX]!, 65535));
    if (F >= 0 && LF >= 0 && MAX >= 0 && r[F]! > 0) r[MAX] = Math.max(r[MAX]!, Math.ceil(r[LF]! / r[F]!));
    if (FIT >= 0 && FIMIN >= 0 && F >= 0 && r[F]! > 1) {
      // The mean forward gap is at least the smallest forward gap, and (new gaps of a one-packet flow) the smallest flow gap.
      const least = o(F) <= 1 ? (FLMIN >= 0 ? r[FLMIN]! : 0) : r[FIMIN]!;
      r[FIT] = Math.max(r[FIT]!, Math.ceil(least * (r[F]! - 1)));
    }
    if (FIT >= 0 && FIM >= 0 && F >= 0 && r[F]! > 1) r[FIM] = Math.max(r[FIM]!, Math.ceil(r[FIT]! / (r[F]! - 1)));
    if (DUR >= 0 && FLMIN >= 0 && F >= 0) {
      const n = r[F]! + (B >= 0 ? r[B]! : 0);
      if (n > 1) r[DUR] = Math.max(r[DUR]!, Math.ceil(r[FLMIN]! * (n - 1)));
    }
    if (DUR >= 0) {
      if (FIT >= 0) r[DUR] = Math.max(r[DUR]!, r[FIT]!);
      if (IM >= 0) r[DUR] = Math.max(r[DUR]!, r[IM]!);
      if (IM >= 0 && F >= 0) {
        const n = r[F]! + (B >= 0 ? r[B]! : 0);
        if (n > 1) r[IM] = Math.max(r[IM]!, Math.min(r[DUR]!, Math.ceil(r[DUR]! / (n - 1))));
      }
    }
  };
}

function buildSchema(
  id: DatasetId,
  names: readonly string[],
  spec: (name: string) => Omit<FeatureSpec, 'name'>,
  relations: (has: (n: string) => boolean) => Relation[],
  repair: (index: ReadonlyMap<string, number>) => (row: Float64Array, original: Float64Array) => void,
  dataRelTolerance: number,
  notes: readonly string[],
): FlowSchema {
  const index = new Map(names.map((n, k) => [n, k] as const));
  return {
    id,
    version: 1,
    features: names.map((name) => ({ name, ...spec(name) })),
    index,
    relations: relations((n) => index.has(n)),
    dataRelTolerance,
    repair: repair(index),
    notes,
  };
}

/**
 * CICFlowMeter counts the first packet's length twice in its packet-length sum S (mined: Average Packet Size x n =
 * Packet Length Mean x (n + 1) on every corpus row): Packet Length Mean = S / (n + 1), Average Packet Size = S / n.
 * Added packets and bytes enter S; the doubled first packet stays what the original's values imply.
 */
function packetSizeFollows(name: 'Average Packet Size' | 'Packet Length Mean'): NonNullable<FeatureSpec['follows']> {
  const bytes = (g: Getter): number => g('Total Length of Fwd Packets') + g('Total Length of Bwd Packets');
  const n = (g: Getter): number => g('Total Fwd Packets') + g('Total Backward Packets');
  return {
    formula: `(total bytes + what the original counted beyond them) / packets (+ 1 for Packet Length Mean when the original counts the first packet twice)`,
    value: (g, o) => {
      // The corrected re-extraction counts each packet once (Packet Length Mean = Average Packet Size = bytes / n).
      const twice = close(o('Average Packet Size') * n(o), o('Packet Length Mean') * (n(o) + 1), 1e-6, 0.01) && (bytes(o) === 0 || !close(o('Average Packet Size'), o('Packet Length Mean'), 1e-6, 1e-9));
      const extraCount = name === 'Packet Length Mean' && twice ? 1 : 0;
      const no = n(o) + extraCount;
      const nn = n(g) + extraCount;
      if (no <= 0 || nn <= 0) return o(name);
      const beyond = o(name) * no - bytes(o);
      return (bytes(g) + beyond) / nn;
    },
  };
}

/**
 * Fwd IAT Min is fixed, except that a flow whose original had at most one forward packet (no forward gap, so 0)
 * gets forward gaps when packets are added: they are spread evenly, so the minimum is their mean.
 */
const FWD_IAT_MIN_FOLLOWS: NonNullable<FeatureSpec['follows']> = {
  formula: 'unchanged; Fwd IAT Total / (Total Fwd Packets - 1) when the original had at most one forward packet',
  value: (g, o) => (o('Total Fwd Packets') <= 1 && g('Total Fwd Packets') > 1 ? g('Fwd IAT Total') / (g('Total Fwd Packets') - 1) : o('Fwd IAT Min')),
};

function cicSpec(name: string): Omit<FeatureSpec, 'name'> {
  if (name === 'Fwd IAT Min') return { cls: 'fixed', integer: false, follows: FWD_IAT_MIN_FOLLOWS };
  if (name === 'Average Packet Size') return { cls: 'fixed', integer: false, follows: packetSizeFollows('Average Packet Size') };
  if (name === 'Packet Length Mean') return { cls: 'fixed', integer: false, follows: packetSizeFollows('Packet Length Mean') };
  const d = CIC_DERIVED[name];
  if (d) return { cls: 'derived', integer: name === 'Down/Up Ratio' || name === 'Fwd Header Length.1' || name.startsWith('Subflow') || name === 'Max Packet Length', formula: d.formula, derive: d.derive };
  if (CIC_UP_INTEGER.includes(name)) return { cls: 'up', integer: true };
  return { cls: 'fixed', integer: CIC_INTEGRAL.has(name) };
}

const CIC_NOTES = [
  'The sender controls its own packets: it can delay (Flow Duration, IAT totals and maxima), add forward packets and pad them (counts, lengths, header bytes); these only increase.',
  'Everything the server sends (backward statistics, Init_Win_bytes_backward), flags, the destination port and the statistics with no closed form (standard deviations, active/idle times) are fixed.',
  'Derived rates and means are recomputed from their formulas; with a zero duration the rates are 0 (the CSVs hold Infinity or NaN there; the loader writes 0).',
  'Init_Win_bytes_* of -1 (no packet in that direction) and negative IAT minima (a CICFlowMeter clock artefact) are read as 0.',
  'Packet Length Mean and Average Packet Size have no closed formula in the base features (CICFlowMeter counts the first packet twice: Average Packet Size x n = Packet Length Mean x (n + 1)); they are fixed but move with the bytes and packets an attacker adds.',
  'Relations mined from every labelled row of the corpus samples (constraints/mined-relations.json) are checked too: header bytes per packet, min <= mean <= max per family, mean = total / count, flag counts <= packets, bytes per packet.',
  'Recorded values of 1e7 and more are rounded to three significant digits, so checks on recorded rows use a relative tolerance of 1 %.',
];

export const cicids2017Schema: FlowSchema = buildSchema('cicids2017', CIC_FEATURES, cicSpec, cicRelations, (ix) => cicRepair(ix), 0.01, CIC_NOTES);

// ---------------------------------------------------------------------------------------------------------------
// Synthetic flows: a CICFlowMeter-like subset with the same formulas, generated by data/synthetic.ts.

export const SYNTHETIC_FEATURES: readonly string[] = [
  'Destination Port', 'Flow Duration', 'Total Fwd Packets', 'Total Backward Packets', 'Total Length of Fwd Packets', 'Total Length of Bwd Packets',
  'Fwd Packet Length Max', 'Fwd Packet Length Min', 'Fwd Packet Length Mean', 'Bwd Packet Length Max', 'Bwd Packet Length Min', 'Bwd Packet Length Mean',
  'Flow Bytes/s', 'Flow Packets/s', 'Flow IAT Mean', 'Flow IAT Max', 'Fwd IAT Total', 'Fwd IAT Mean', 'Fwd IAT Max', 'Fwd Packets/s', 'Bwd Packets/s',
  'Fwd Header Length', 'Max Packet Length', 'SYN Flag Count', 'ACK Flag Count', 'Down/Up Ratio', 'Init_Win_bytes_forward', 'Init_Win_bytes_backward',
];

export const syntheticSchema: FlowSchema = buildSchema('synthetic', SYNTHETIC_FEATURES, cicSpec, cicRelations, (ix) => cicRepair(ix), 0, [
  'A CICFlowMeter-like subset of 28 features with the same formulas and attacker model as cicids2017.',
  ...CIC_NOTES.slice(0, 3),
]);

// ---------------------------------------------------------------------------------------------------------------
// UNSW-NB15: canonical names of the official training/testing-set CSVs.

export const UNSW_FEATURES: readonly string[] = [
  'dur', 'proto', 'service', 'state', 'spkts', 'dpkts', 'sbytes', 'dbytes', 'rate', 'sttl', 'dttl', 'sload', 'dload', 'sloss', 'dloss', 'sinpkt',
  'dinpkt', 'sjit', 'djit', 'swin', 'stcpb', 'dtcpb', 'dwin', 'tcprtt', 'synack', 'ackdat', 'smean', 'dmean', 'trans_depth', 'response_body_len',
  'ct_srv_src', 'ct_state_ttl', 'ct_dst_ltm', 'ct_src_dport_ltm', 'ct_dst_sport_ltm', 'ct_dst_src_ltm', 'is_ftp_login', 'ct_ftp_cmd',
  'ct_flw_http_mthd', 'ct_src_ltm', 'ct_srv_dst', 'is_sm_ips_ports',
];

export const UNSW_VOCABULARY: Readonly<Record<string, readonly string[]>> = {
  proto: ['tcp', 'udp', 'unas', 'arp', 'ospf', 'sctp', 'icmp', 'igmp', 'any', 'gre', 'ipv6', 'pim', 'rtp', 'sep'],
  service: ['-', 'dns', 'http', 'smtp', 'ftp-data', 'ftp', 'ssh', 'pop3', 'dhcp', 'snmp', 'ssl', 'irc', 'radius'],
  state: ['FIN', 'INT', 'CON', 'REQ', 'RST', 'ECO', 'ACC', 'CLO', 'PAR', 'URN', 'no'],
};

/** Half a unit of the sixth decimal: how far the recorded `dur` may be from the true duration. */
const DUR_ROUNDING = 5e-7;

function loadDerived(bytes: string, pkts: string): NonNullable<FeatureSpec['derive']> {
  return (g) => (g('dur') > 0 && g(pkts) > 0 ? (8 * g(bytes) * (g(pkts) - 1)) / (g(pkts) * g('dur')) : 0);
}

function loadRecorded(bytes: string, pkts: string): NonNullable<FeatureSpec['recorded']> {
  return (g, v, rel) => {
    const d = g('dur');
    const p = g(pkts);
    if (p <= 0) return close(v, 0, 1e-6);
    const f = (dd: number): number => (8 * g(bytes) * (p - 1)) / (p * dd);
    // A duration recorded as 0 says nothing about the load (Argus computed it from the unrounded time).
    const lo = d > DUR_ROUNDING ? f(d + DUR_ROUNDING) : 0;
    const hi = d - DUR_ROUNDING > 0 ? f(d - DUR_ROUNDING) : Infinity;
    return v >= lo * (1 - rel) - 1e-6 && v <= hi * (1 + rel) + 1e-6;
  };
}

function unswSpec(name: string): Omit<FeatureSpec, 'name'> {
  const vocab = UNSW_VOCABULARY[name];
  if (vocab) return { cls: 'fixed', integer: true, vocabulary: vocab };
  switch (name) {
    case 'dur':
    case 'sinpkt':
      return { cls: 'up', integer: false };
    case 'spkts':
    case 'sbytes':
      return { cls: 'up', integer: true };
    case 'smean':
      return { cls: 'derived', integer: true, formula: 'floor(sbytes / spkts + 0.5); 0 without packets', derive: (g) => (g('spkts') > 0 ? Math.floor(g('sbytes') / g('spkts') + 0.5) : 0) };
    case 'dmean':
      return { cls: 'derived', integer: true, formula: 'floor(dbytes / dpkts + 0.5); 0 without packets', derive: (g) => (g('dpkts') > 0 ? Math.floor(g('dbytes') / g('dpkts') + 0.5) : 0) };
    case 'sload':
      return { cls: 'derived', integer: false, formula: '8 * sbytes * (spkts - 1) / (spkts * dur); 0 when dur or spkts is 0', derive: loadDerived('sbytes', 'spkts'), recorded: loadRecorded('sbytes', 'spkts') };
    case 'dload':
      return { cls: 'derived', integer: false, formula: '8 * dbytes * (dpkts - 1) / (dpkts * dur); 0 when dur or dpkts is 0', derive: loadDerived('dbytes', 'dpkts'), recorded: loadRecorded('dbytes', 'dpkts') };
    case 'rate':
      return {
        cls: 'derived',
        integer: false,
        formula: '(spkts + dpkts - 1) / dur; 0 when dur is 0',
        derive: (g) => (g('dur') > 0 ? (g('spkts') + g('dpkts') - 1) / g('dur') : 0),
        recorded: (g, v, rel) => {
          const d = g('dur');
          const n = g('spkts') + g('dpkts') - 1;
          if (d <= 0) return close(v, 0, 1e-6);
          const hi = d - DUR_ROUNDING > 0 ? n / (d - DUR_ROUNDING) : Infinity;
          return v >= (n / (d + DUR_ROUNDING)) * (1 - rel) - 1e-6 && v <= hi * (1 + rel) + 1e-6;
        },
      };
    case 'tcprtt':
      return { cls: 'derived', integer: false, formula: 'synack + ackdat', derive: (g) => g('synack') + g('ackdat') };
    default:
      return { cls: 'fixed', integer: /^(spkts|dpkts|sbytes|dbytes|sttl|dttl|sloss|dloss|swin|dwin|stcpb|dtcpb|trans_depth|response_body_len|ct_.*|is_.*)$/.test(name) };
  }
}

function unswRelations(has: (n: string) => boolean): Relation[] {
  const out: Relation[] = [{ id: 'sloss_le_spkts', description: 'sloss <= spkts (retransmitted packets are packets)', holds: (g, tol, rel) => leq(g('sloss'), g('spkts'), tol, rel) }];
  return [...out, ...asRelations(minedRelations('unsw_nb15', has), new Set(out.map((r) => r.id)))];
}

/** Mined bytes-per-packet bounds of the source side: per protocol code (0 = any protocol), [lowest, highest]. */
function unswByteBounds(): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  for (const r of minedRelations('unsw_nb15', () => true)) {
    const m = /^sbytes_(ge|le)_(\d+)_per_packet(?:_(.+))?$/.exec(r.id);
    if (!m) continue;
    const code = m[3] === undefined ? 0 : UNSW_VOCABULARY['proto']!.indexOf(m[3]) + 1;
    const b = out.get(code) ?? [0, Infinity];
    if (m[1] === 'ge') b[0] = Math.max(b[0], Number(m[2]));
    else b[1] = Math.min(b[1], Number(m[2]));
    out.set(code, b);
  }
  return out;
}

/** Keeps the source's bytes per packet within the mined bounds of its protocol (raising sbytes or spkts, never below the original). */
function unswRepair(index: ReadonlyMap<string, number>): (row: Float64Array, original: Float64Array) => void {
  const bounds = unswByteBounds();
  const P = index.get('proto')!;
  const N = index.get('spkts')!;
  const BY = index.get('sbytes')!;
  return (r) => {
    if (!(r[N]! > 0)) return;
    const any = bounds.get(0) ?? [0, Infinity];
    const own = bounds.get(r[P]!) ?? [0, Infinity];
    const lo = Math.max(any[0], own[0]);
    const hi = Math.min(any[1], own[1]);
    for (let pass = 0; pass < 3; pass++) {
      if (Number.isFinite(hi)) r[N] = Math.max(r[N]!, Math.ceil(r[BY]! / hi - 1e-9));
      r[BY] = Math.max(r[BY]!, Math.ceil(lo * r[N]! - 1e-9));
    }
  };
}

export const unswNb15Schema: FlowSchema = buildSchema(
  'unsw_nb15',
  UNSW_FEATURES,
  unswSpec,
  unswRelations,
  unswRepair,
  0.01,
  [
    'The source side controls its duration, its packet and byte counts and its inter-packet time (sinpkt); these only increase.',
    'proto, service and state are encoded as vocabulary index + 1 (0 = any other value) and are fixed, as are TTLs, windows, destination statistics and the ct_* counters over the last 100 connections (host context).',
    'smean, dmean, sload, dload, rate and tcprtt are derived; recorded loads and rates are checked against the range their formula gives for dur +- 5e-7 s (dur is printed with six decimals), widened by 1 % (float32 storage).',
    'Blanks (is_ftp_login, ct_ftp_cmd, ct_flw_http_mthd in the raw partitions) are read as 0.',
    'Relations mined from every labelled row of the corpus samples (constraints/mined-relations.json) are checked too: the source bytes per packet within its protocol\'s bounds (tcp at least 28, udp at least 24, at most 1,514), losses <= packets, tcprtt >= synack and ackdat.',
  ],
);

export function schemaOf(id: DatasetId): FlowSchema {
  return id === 'cicids2017' ? cicids2017Schema : id === 'unsw_nb15' ? unswNb15Schema : syntheticSchema;
}

/** The classes a feature belongs to as the spec names them (an integral up feature is both `up` and `integer`). */
export function classesOf(f: FeatureSpec): string[] {
  return f.integer && f.cls !== 'derived' ? [f.cls, 'integer'] : [f.cls];
}

export function controllable(schema: FlowSchema): number[] {
  const out: number[] = [];
  schema.features.forEach((f, k) => {
    if (f.cls === 'up' || f.cls === 'free') out.push(k);
  });
  return out;
}
