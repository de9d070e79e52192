import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../capture/index.js';
import { UidIndex } from './uids.js';

/** Records that differ only in uid and position (the index reads nothing else). */
function records(uids: readonly string[]): ConnectionRecord[] {
  return uids.map((uid, i) => ({ uid, firstPacket: i }) as unknown as ConnectionRecord);
}

/** The index answers every probe as a Map built by setting each record in order. */
function sameAsMap(uids: readonly string[], probes: readonly string[]): void {
  const list = records(uids);
  const index = new UidIndex(list);
  const map = new Map(list.map((c) => [c.uid, c]));
  for (const p of [...uids, ...probes]) {
    expect(index.get(p), p).toBe(map.get(p));
    expect(index.has(p), p).toBe(map.has(p));
  }
}

const PROBES = ['', 'C', 'C0', 'C00', 'C1', 'C01', 'C2', 'C9', 'C10', 'C99', 'C100', 'C1000000000', 'D1', 'c1', 'C1a', 'C-1', 'C 1', 'C4294967297'];

describe('connections by uid', () => {
  it('answers as a Map for serial uids in order, with gaps, out of order and spelt with leading zeros', () => {
    expect.hasAssertions();
    sameAsMap(['C1', 'C2', 'C3', 'C4'], PROBES);
    sameAsMap(['C5', 'C7', 'C10', 'C11', 'C12'], PROBES);
    sameAsMap(['C12', 'C3', 'C7', 'C1'], PROBES);
    sameAsMap(['C01', 'C2', 'C003'], [...PROBES, 'C3', 'C03', 'C003']);
    sameAsMap(['C0'], PROBES);
  });

  it('answers as a Map for repeated serials (the last record wins), sparse serials and uids of other forms', () => {
    expect.hasAssertions();
    sameAsMap(['C1', 'C2', 'C1'], PROBES);
    sameAsMap(['C1', 'C01'], PROBES);
    sameAsMap(['C1', 'C999999999'], PROBES);
    sameAsMap(['CHhAvVGS1DHFjwGM9', 'C1', 'CmES5u32sYpV7JYN'], [...PROBES, 'CHhAvVGS1DHFjwGM9']);
    sameAsMap(['C12345678901', 'C1'], [...PROBES, 'C12345678901']);
    sameAsMap([], PROBES);
  });

  it('finds every connection of a long run of serial uids and none beyond it', () => {
    const uids = Array.from({ length: 5000 }, (_, i) => `C${i + 1}`);
    const index = new UidIndex(records(uids));
    let found = 0;
    for (const u of uids) if (index.get(u)?.uid === u) found += 1;
    expect(found).toBe(5000);
    expect(index.get('C5001')).toBeUndefined();
    expect(index.get('C0')).toBeUndefined();
  });
});
