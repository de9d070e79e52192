// Outputs pinned on corpus files (and the bench's text formats at a small size): every count and digest of the analysis
// must stay the same when the pipeline is made faster. Figures: testdata/pinned-outputs.json (from pinned.ts).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPORA, PINNED_CASES, PINNED_FILE, pinnedOutputs, type PinnedOutputs } from './pinned.js';

const pinned = JSON.parse(readFileSync(PINNED_FILE, 'utf8')) as Record<string, PinnedOutputs>;

describe.skipIf(!existsSync(CORPORA))('pinned analysis outputs', () => {
  it('pins every case', () => {
    expect(Object.keys(pinned).sort()).toEqual(Object.keys(PINNED_CASES).sort());
  });
  for (const name of Object.keys(PINNED_CASES)) {
    it(`${name}: the same events, nodes, edges, stories, detections and digests`, () => {
      const now = pinnedOutputs(name);
      expect(now.events).toBeGreaterThan(0);
      expect(now).toEqual(pinned[name]);
    }, 60_000);
  }
});
