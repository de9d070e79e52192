// CICFlowMeter column spellings: the corrected CICIDS2017 re-extraction (Engelen et al. 2021, CICFlowMeter 4 names,
// "- Attempted" labels), CSE-CIC-IDS2018-style abbreviations and snake_case exports load onto the same schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { violations } from '../constraints/validity.js';
import { cicKey, featureResolver, parseFlowCsv, type FlowTable } from './csv.js';
import { CIC_FEATURES, cicids2017Schema, unswNb15Schema } from './schema.js';

/** The corrected re-extraction's spelling of each MachineLearningCVE name that it renames (its CSV header, 91 columns). */
const CORRECTED: Readonly<Record<string, string>> = {
  'Destination Port': 'Dst Port',
  'Total Fwd Packets': 'Total Fwd Packet',
  'Total Backward Packets': 'Total Bwd packets',
  'Total Length of Fwd Packets': 'Total Length of Fwd Packet',
  'Total Length of Bwd Packets': 'Total Length of Bwd Packet',
  'Min Packet Length': 'Packet Length Min',
  'Max Packet Length': 'Packet Length Max',
  'CWE Flag Count': 'CWR Flag Count',
  'Avg Fwd Segment Size': 'Fwd Segment Size Avg',
  'Avg Bwd Segment Size': 'Bwd Segment Size Avg',
  'Fwd Avg Bytes/Bulk': 'Fwd Bytes/Bulk Avg',
  'Fwd Avg Packets/Bulk': 'Fwd Packet/Bulk Avg',
  'Fwd Avg Bulk Rate': 'Fwd Bulk Rate Avg',
  'Bwd Avg Bytes/Bulk': 'Bwd Bytes/Bulk Avg',
  'Bwd Avg Packets/Bulk': 'Bwd Packet/Bulk Avg',
  'Bwd Avg Bulk Rate': 'Bwd Bulk Rate Avg',
  Init_Win_bytes_forward: 'FWD Init Win Bytes',
  Init_Win_bytes_backward: 'Bwd Init Win Bytes',
  act_data_pkt_fwd: 'Fwd Act Data Pkts',
  min_seg_size_forward: 'Fwd Seg Size Min',
};

/** Lower-case snake_case abbreviations (the Python cicflowmeter's and CSE-CIC-IDS2018's short names). */
const SNAKE: Readonly<Record<string, string>> = {
  'Flow Duration': 'flow_duration', 'Total Fwd Packets': 'tot_fwd_pkts', 'Total Backward Packets': 'tot_bwd_pkts',
  'Total Length of Fwd Packets': 'totlen_fwd_pkts', 'Total Length of Bwd Packets': 'totlen_bwd_pkts',
  'Fwd Packet Length Max': 'fwd_pkt_len_max', 'Fwd Packet Length Min': 'fwd_pkt_len_min', 'Fwd Packet Length Mean': 'fwd_pkt_len_mean',
  'Fwd Packet Length Std': 'fwd_pkt_len_std', 'Bwd Packet Length Max': 'bwd_pkt_len_max', 'Bwd Packet Length Min': 'bwd_pkt_len_min',
  'Bwd Packet Length Mean': 'bwd_pkt_len_mean', 'Bwd Packet Length Std': 'bwd_pkt_len_std', 'Flow Bytes/s': 'flow_byts_s',
  'Flow Packets/s': 'flow_pkts_s', 'Flow IAT Mean': 'flow_iat_mean', 'Flow IAT Std': 'flow_iat_std', 'Flow IAT Max': 'flow_iat_max',
  'Flow IAT Min': 'flow_iat_min', 'Fwd IAT Total': 'fwd_iat_tot', 'Fwd IAT Mean': 'fwd_iat_mean', 'Fwd IAT Std': 'fwd_iat_std',
  'Fwd IAT Max': 'fwd_iat_max', 'Fwd IAT Min': 'fwd_iat_min', 'Bwd IAT Total': 'bwd_iat_tot', 'Bwd IAT Mean': 'bwd_iat_mean',
  'Bwd IAT Std': 'bwd_iat_std', 'Bwd IAT Max': 'bwd_iat_max', 'Bwd IAT Min': 'bwd_iat_min', 'Fwd PSH Flags': 'fwd_psh_flags',
  'Bwd PSH Flags': 'bwd_psh_flags', 'Fwd URG Flags': 'fwd_urg_flags', 'Bwd URG Flags': 'bwd_urg_flags', 'Fwd Header Length': 'fwd_header_len',
  'Bwd Header Length': 'bwd_header_len', 'Fwd Packets/s': 'fwd_pkts_s', 'Bwd Packets/s': 'bwd_pkts_s', 'Min Packet Length': 'pkt_len_min',
  'Max Packet Length': 'pkt_len_max', 'Packet Length Mean': 'pkt_len_mean', 'Packet Length Std': 'pkt_len_std',
  'Packet Length Variance': 'pkt_len_var', 'FIN Flag Count': 'fin_flag_cnt', 'SYN Flag Count': 'syn_flag_cnt', 'RST Flag Count': 'rst_flag_cnt',
  'PSH Flag Count': 'psh_flag_cnt', 'ACK Flag Count': 'ack_flag_cnt', 'URG Flag Count': 'urg_flag_cnt', 'CWE Flag Count': 'cwe_flag_count',
  'ECE Flag Count': 'ece_flag_cnt', 'Down/Up Ratio': 'down_up_ratio', 'Average Packet Size': 'pkt_size_avg',
  'Avg Fwd Segment Size': 'fwd_seg_size_avg', 'Avg Bwd Segment Size': 'bwd_seg_size_avg', 'Fwd Header Length.1': 'fwd_header_len',
  'Fwd Avg Bytes/Bulk': 'fwd_byts_b_avg', 'Fwd Avg Packets/Bulk': 'fwd_pkts_b_avg', 'Fwd Avg Bulk Rate': 'fwd_blk_rate_avg',
  'Bwd Avg Bytes/Bulk': 'bwd_byts_b_avg', 'Bwd Avg Packets/Bulk': 'bwd_pkts_b_avg', 'Bwd Avg Bulk Rate': 'bwd_blk_rate_avg',
  'Subflow Fwd Packets': 'subflow_fwd_pkts', 'Subflow Fwd Bytes': 'subflow_fwd_byts', 'Subflow Bwd Packets': 'subflow_bwd_pkts',
  'Subflow Bwd Bytes': 'subflow_bwd_byts', Init_Win_bytes_forward: 'init_fwd_win_byts', Init_Win_bytes_backward: 'init_bwd_win_byts',
  act_data_pkt_fwd: 'fwd_act_data_pkts', min_seg_size_forward: 'fwd_seg_size_min', 'Active Mean': 'active_mean', 'Active Std': 'active_std',
  'Active Max': 'active_max', 'Active Min': 'active_min', 'Idle Mean': 'idle_mean', 'Idle Std': 'idle_std', 'Idle Max': 'idle_max',
  'Idle Min': 'idle_min', Label: 'label',
};

function renameHeader(text: string, names: Readonly<Record<string, string>>): string {
  const nl = text.indexOf('\n');
  const header = text
    .slice(0, nl)
    .split(',')
    .map((n) => names[n.trim()] ?? n);
  return `${header.join(',')}${text.slice(nl)}`;
}

function sameTable(a: FlowTable, b: FlowTable): void {
  expect(b.schema).toBe(a.schema);
  expect(b.rows).toBe(a.rows);
  expect(b.missingColumns).toEqual(a.missingColumns);
  expect(Buffer.from(b.y).equals(Buffer.from(a.y))).toBe(true);
  expect(b.category.join('\n')).toBe(a.category.join('\n'));
  // Byte equality (a deep toEqual over half a million numbers takes seconds).
  expect(Buffer.from(b.x.data.buffer, b.x.data.byteOffset, b.x.data.byteLength).equals(Buffer.from(a.x.data.buffer, a.x.data.byteOffset, a.x.data.byteLength))).toBe(true);
  expect(b.cleaning).toEqual(a.cleaning);
}

describe('CICFlowMeter name keys', () => {
  it('read names of Object.prototype members as words, not as aliases', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'Flow constructor Bytes']) {
      expect(typeof cicKey(name)).toBe('string');
      expect(featureResolver(cicids2017Schema)(name)).toBeUndefined();
      expect(featureResolver(unswNb15Schema)(name)).toBeUndefined();
    }
    expect(cicKey('Tot Fwd Pkts')).toBe(cicKey('Total Fwd Packets'));
    expect(featureResolver(unswNb15Schema)('smeansz')).toBe('smean');
  });

  it('keep every schema feature distinct and join the spellings of the same feature', () => {
    const keys = CIC_FEATURES.filter((n) => !n.endsWith('.1')).map(cicKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [cic, other] of [...Object.entries(CORRECTED), ...Object.entries(SNAKE)]) if (!cic.endsWith('.1')) expect(cicKey(other)).toBe(cicKey(cic));
    expect(cicKey(' Fwd Header Length')).toBe(cicKey('fwd_header_len'));
    expect(cicKey('Flow Bytes/s')).not.toBe(cicKey('Flow Packets/s'));
    expect(cicKey('Total Fwd Packets')).not.toBe(cicKey('Fwd Packets/s'));
  });
});

describe.skipIf(!hasCorpora())('renamed CICFlowMeter headers on the corpus samples', () => {
  const sample = (): string => readFileSync(corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'), 'utf8');
  const head = (): string => readFileSync(corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv'), 'utf8');

  it('reads the labelled sample under the corrected re-extraction names into the same table', () => {
    const original = parseFlowCsv(sample());
    const renamed = parseFlowCsv(renameHeader(sample(), CORRECTED));
    expect(renamed.format).toBe('cic-renamed');
    sameTable(original, renamed);
  });

  it('reads the labelled sample under snake_case abbreviations (the duplicated header length included)', () => {
    const original = parseFlowCsv(sample());
    const renamed = parseFlowCsv(renameHeader(sample(), SNAKE));
    expect(renamed.format).toBe('cic-renamed');
    sameTable(original, renamed);
  });

  it('reads the MachineLearningCVE head (leading spaces, Destination Port) under the corrected names', () => {
    const original = parseFlowCsv(head());
    const renamed = parseFlowCsv(renameHeader(head(), CORRECTED));
    expect(original.format).toBe('cic-machinelearningcve');
    expect(renamed.x.data[0]).toBe(54865); // Dst Port -> Destination Port
    sameTable(original, renamed);
  });
});

describe('the corrected CICIDS2017 re-extraction layout', () => {
  // Its real header (91 columns: identifiers, CICFlowMeter 4 features, RST flags, ICMP fields, Label, Attempted Category)
  // with three flows of the shapes its files hold; the wrong-day timestamps are ISO as written by the fixed CICFlowMeter.
  const header =
    'id,Flow ID,Src IP,Src Port,Dst IP,Dst Port,Protocol,Timestamp,Flow Duration,Total Fwd Packet,Total Bwd packets,Total Length of Fwd Packet,Total Length of Bwd Packet,Fwd Packet Length Max,Fwd Packet Length Min,Fwd Packet Length Mean,Fwd Packet Length Std,Bwd Packet Length Max,Bwd Packet Length Min,Bwd Packet Length Mean,Bwd Packet Length Std,Flow Bytes/s,Flow Packets/s,Flow IAT Mean,Flow IAT Std,Flow IAT Max,Flow IAT Min,Fwd IAT Total,Fwd IAT Mean,Fwd IAT Std,Fwd IAT Max,Fwd IAT Min,Bwd IAT Total,Bwd IAT Mean,Bwd IAT Std,Bwd IAT Max,Bwd IAT Min,Fwd PSH Flags,Bwd PSH Flags,Fwd URG Flags,Bwd URG Flags,Fwd RST Flags,Bwd RST Flags,Fwd Header Length,Bwd Header Length,Fwd Packets/s,Bwd Packets/s,Packet Length Min,Packet Length Max,Packet Length Mean,Packet Length Std,Packet Length Variance,FIN Flag Count,SYN Flag Count,RST Flag Count,PSH Flag Count,ACK Flag Count,URG Flag Count,CWR Flag Count,ECE Flag Count,Down/Up Ratio,Average Packet Size,Fwd Segment Size Avg,Bwd Segment Size Avg,Fwd Bytes/Bulk Avg,Fwd Packet/Bulk Avg,Fwd Bulk Rate Avg,Bwd Bytes/Bulk Avg,Bwd Packet/Bulk Avg,Bwd Bulk Rate Avg,Subflow Fwd Packets,Subflow Fwd Bytes,Subflow Bwd Packets,Subflow Bwd Bytes,FWD Init Win Bytes,Bwd Init Win Bytes,Fwd Act Data Pkts,Fwd Seg Size Min,Active Mean,Active Std,Active Max,Active Min,Idle Mean,Idle Std,Idle Max,Idle Min,ICMP Code,ICMP Type,Total TCP Flow Time,Label,Attempted Category';
  const names = header.split(',');
  /** A flow: 2 forward packets of 100 bytes, 1 backward of 60, over 1 s; the rest 0 except the given cells. */
  const flow = (id: number, ts: string, label: string, attempted: number): string => {
    const v: Record<string, string | number> = {
      id, 'Flow ID': `192.168.10.5-192.168.10.50-${id}-80-6`, 'Src IP': '192.168.10.5', 'Src Port': 40000 + id, 'Dst IP': '192.168.10.50',
      'Dst Port': 80, Protocol: 6, Timestamp: ts, 'Flow Duration': 1_000_000, 'Total Fwd Packet': 2, 'Total Bwd packets': 1,
      'Total Length of Fwd Packet': 200, 'Total Length of Bwd Packet': 60, 'Fwd Packet Length Max': 100, 'Fwd Packet Length Min': 100,
      'Fwd Packet Length Mean': 100, 'Bwd Packet Length Max': 60, 'Bwd Packet Length Min': 60, 'Bwd Packet Length Mean': 60,
      'Flow Bytes/s': 260, 'Flow Packets/s': 3, 'Flow IAT Mean': 500_000, 'Flow IAT Max': 600_000, 'Flow IAT Min': 400_000,
      'Fwd IAT Total': 1_000_000, 'Fwd IAT Mean': 1_000_000, 'Fwd IAT Max': 1_000_000, 'Fwd IAT Min': 1_000_000, 'Fwd Header Length': 64,
      'Bwd Header Length': 32, 'Fwd Packets/s': 2, 'Bwd Packets/s': 1, 'Packet Length Min': 60, 'Packet Length Max': 100,
      'Packet Length Mean': 86.66666667, 'Packet Length Std': 23.09401077, 'Packet Length Variance': 533.3333333, 'ACK Flag Count': 1,
      'Average Packet Size': 86.66666667, 'Fwd Segment Size Avg': 100, 'Bwd Segment Size Avg': 60, 'Subflow Fwd Packets': 2,
      'Subflow Fwd Bytes': 200, 'Subflow Bwd Packets': 1, 'Subflow Bwd Bytes': 60, 'FWD Init Win Bytes': 29200, 'Bwd Init Win Bytes': -1,
      'Fwd Act Data Pkts': 2, 'Fwd Seg Size Min': 32, 'ICMP Code': -1, 'ICMP Type': -1, 'Total TCP Flow Time': 1_000_000, Label: label,
      'Attempted Category': attempted,
    };
    return names.map((n) => String(v[n] ?? 0)).join(',');
  };
  const text = [
    header,
    flow(1, '2017-07-03 09:01:02.123456', 'BENIGN', -1),
    flow(2, '2017-07-05 10:11:12.000001', 'DoS Hulk', -1),
    flow(3, '2017-07-05 10:11:13.5', 'DoS Hulk - Attempted', 0),
    flow(4, '2017-07-07 15:00:00.0', 'Portscan', -1),
  ].join('\n');

  it('maps every schema feature but the duplicated header length (computed), reads ISO days and counts Attempted as benign', () => {
    const t = parseFlowCsv(text);
    expect(t.schema.id).toBe('cicids2017');
    expect(t.format).toBe('cic-renamed');
    expect(t.missingColumns).toEqual(['Fwd Header Length.1']);
    expect([...t.y]).toEqual([0, 1, 0, 1]);
    expect(t.category).toEqual(['BENIGN', 'DoS Hulk', 'DoS Hulk - Attempted', 'Portscan']);
    expect([...t.day]).toEqual([0, 2, 2, 4]);
    const g = (n: string): number => t.x.data[t.schema.index.get(n)!]!;
    expect(g('Destination Port')).toBe(80);
    expect(g('Total Backward Packets')).toBe(1);
    expect(g('Fwd Header Length.1')).toBe(64);
    expect(g('Init_Win_bytes_forward')).toBe(29200);
    expect(g('Init_Win_bytes_backward')).toBe(0); // -1: no packet that direction
    expect(g('min_seg_size_forward')).toBe(32);
    const row = t.x.data.subarray(0, t.x.cols);
    expect(violations(t.schema, row, row, { relTolerance: t.schema.dataRelTolerance })).toEqual([]);
  });

  it('counts Attempted flows as malicious on request', () => {
    expect([...parseFlowCsv(text, { attempted: 'malicious' }).y]).toEqual([0, 1, 1, 1]);
  });
});
