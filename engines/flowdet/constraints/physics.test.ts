// The validity checker against the relations mined from the real corpus rows (not against its own list): the
// committed list is what mining the corpus gives, every flow isValid accepts passes every mined relation, and the
// physically impossible flows seen in earlier attacks are refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPORA_DIR, corpusPath, hasCorpora } from '../../../test/corpora.js';
import { Random } from '../../core/ml/index.js';
import { readFlowCsvFile, type FlowTable } from '../data/csv.js';
import { recomputeDerived } from '../data/datasets.js';
import { controllable } from '../data/schema.js';
import { MINED_FILE, mineCorpora } from './mine.js';
import { minedFor, physicalViolations } from './physics.js';
import { deriveInPlace, isValid, projectInPlace, violations } from './validity.js';

const committed = JSON.parse(readFileSync(MINED_FILE, 'utf8')) as { relations: { id: string; dataset: string }[] };
const ids = committed.relations.map((r) => r.id);

describe.skipIf(!hasCorpora())('mined physics', () => {
  it('the committed list is exactly what mining every labelled corpus row gives', async () => {
    const fresh = await mineCorpora(CORPORA_DIR);
    expect(JSON.parse(JSON.stringify(fresh))).toEqual(JSON.parse(readFileSync(MINED_FILE, 'utf8')));
    expect(fresh.rows).toEqual({ cicids2017: 6336, unsw_nb15: 9040 });
  }, 60_000);

  it('holds the families the datasets obey: header bytes, orderings, means, flags, bytes per packet', () => {
    for (const id of ['fwd_header_ge_20_per_packet', 'fwd_header_ge_min_segment_per_packet', 'fwd_iat_min_le_mean', 'flow_iat_min_le_mean', 'idle_min_le_mean', 'fwd_len_mean_total', 'flow_iat_mean_duration', 'avg_packet_size_vs_pkt_len_mean', 'syn_flag_countle_packets', 'fwd_psh_flags_le_fwd_packets', 'sbytes_ge_28_per_packet_tcp', 'sbytes_ge_24_per_packet_udp', 'sbytes_le_1514_per_packet', 'sloss_le_spkts'])
      expect(ids, id).toContain(id);
    // What fails on real rows is not kept (CICFlowMeter's Average Packet Size is not bytes / packets).
    expect(ids).not.toContain('avg_packet_size_bytes_per_packet');
    expect(ids).not.toContain('fwd_header_ge_32_per_packet');
  });

  async function realRows(): Promise<FlowTable[]> {
    return [
      recomputeDerived(await readFlowCsvFile(corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'))),
      recomputeDerived(await readFlowCsvFile(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv'))),
      recomputeDerived(await readFlowCsvFile(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv'))),
    ];
  }

  it('every perturbed real flow that isValid accepts passes every mined relation', async () => {
    let accepted = 0;
    for (const t of await realRows()) {
      const mined = minedFor(t.schema);
      expect(mined.length).toBeGreaterThan(10);
      const rng = new Random(11);
      const K = controllable(t.schema);
      const C = t.x.cols;
      for (let i = 0; i < t.rows; i++) {
        const o = t.x.data.subarray(i * C, (i + 1) * C);
        const r = Float64Array.from(o);
        for (const k of K) if (rng.next() < 0.7) r[k] = r[k]! * Math.exp(Math.abs(rng.normal()) * 1.5) + rng.next() * 20;
        projectInPlace(t.schema, o, r);
        if (!isValid(t.schema, o, r)) continue;
        accepted++;
        expect(physicalViolations(mined, t.schema, o, r), `${t.schema.id} row ${i}`).toEqual([]);
      }
    }
    expect(accepted).toBeGreaterThan(14_000);
  }, 120_000);

  it('refuses the impossible flows: bytes per packet below the protocol, min above mean, short headers, a fixed average size', async () => {
    const [cic, unsw] = await realRows();
    const pick = (t: FlowTable, pred: (g: (n: string) => number) => boolean): Float64Array => {
      for (let i = 0; i < t.rows; i++) {
        const row = Float64Array.from(t.x.data.subarray(i * t.x.cols, (i + 1) * t.x.cols));
        if (pred((n) => row[t.schema.index.get(n)!]!)) return row;
      }
      throw new Error('no such row');
    };
    const set = (t: FlowTable, row: Float64Array, values: Record<string, number>): Float64Array => {
      const r = Float64Array.from(row);
      for (const [n, v] of Object.entries(values)) r[t.schema.index.get(n)!] = v;
      return r;
    };
    const rules = (t: FlowTable, o: Float64Array, r: Float64Array): string[] => violations(t.schema, o, r).map((v) => `${v.rule}:${v.feature}`);
    // UNSW: spkts 2 -> 11 with sbytes unchanged (derived features recomputed): too few bytes per tcp packet.
    const u = pick(unsw!, (g) => g('proto') === 1 && g('spkts') === 2 && g('sbytes') < 300);
    const u2 = set(unsw!, u, { spkts: 11 });
    projectInPlace(unsw!.schema, u, Float64Array.from(u2)); // the projection repairs it; the raw row must be refused
    const ug = (n: string): number => u2[unsw!.schema.index.get(n)!]!;
    const recomputed = set(unsw!, u2, { smean: Math.floor(ug('sbytes') / 11 + 0.5), sload: (8 * ug('sbytes') * 10) / (11 * ug('dur')), rate: (11 + ug('dpkts') - 1) / ug('dur') });
    expect(rules(unsw!, u, recomputed)).toContain('relation:sbytes_ge_28_per_packet_tcp');
    // CICIDS2017: more forward packets with the same gap total puts the mean gap below Fwd IAT Min.
    const c = pick(cic!, (g) => g('Total Fwd Packets') >= 3 && g('Fwd IAT Min') > 1000);
    const cg = (n: string): number => c[cic!.schema.index.get(n)!]!;
    const more = Float64Array.from(c);
    const f2 = 2 * Math.ceil(cg('Fwd IAT Total') / cg('Fwd IAT Min')) + 5;
    more[cic!.schema.index.get('Total Fwd Packets')!] = f2;
    more[cic!.schema.index.get('Fwd Header Length')!] = 32 * f2;
    const derivedOnly = (r: Float64Array): Float64Array => {
      deriveInPlace(cic!.schema, r);
      return r;
    };
    const moreRules = rules(cic!, c, derivedOnly(more));
    expect(moreRules, moreRules.join(' ')).toContain('relation:fwd_iat_min_le_mean');
    // Fewer than 20 header bytes per forward packet.
    const short = derivedOnly(set(cic!, c, { 'Total Fwd Packets': cg('Total Fwd Packets') + 5 }));
    expect(rules(cic!, c, short)).toContain('relation:fwd_header_ge_20_per_packet');
    // Average Packet Size held fixed while the forward bytes grow.
    const bytes = derivedOnly(set(cic!, c, { 'Total Length of Fwd Packets': cg('Total Length of Fwd Packets') + 5000, 'Fwd Packet Length Max': Math.max(cg('Fwd Packet Length Max'), cg('Total Length of Fwd Packets') + 5000) }));
    expect(rules(cic!, c, bytes)).toContain('fixed:Average Packet Size');
    // The projection repairs each of them into a flow isValid accepts.
    for (const r of [more, short, bytes]) {
      projectInPlace(cic!.schema, c, r);
      expect(rules(cic!, c, r)).toEqual([]);
    }
  }, 60_000);
});
