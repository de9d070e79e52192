// A bounded, seeded fuzz of the EVTX parser (mutate.fixture.ts: flips, runs, cuts at chunk/record/template boundaries,
// hostile length and offset fields, self-referencing and deeply nested templates, duplicated and reordered chunks,
// checksums recomputed): every input gives records with warnings or a parse_error, in each of the four renderings.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { mulberry32 } from '../../core/random.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { parseEvtx, type EvtxOptions } from './index.js';
import { mutateEvtx } from './mutate.fixture.js';

const corpus = hasCorpora() ? describe : describe.skip;
const MODES: readonly EvtxOptions[] = [{ json: true }, { json: true, xml: true }, { json: false, parts: true }, { json: false, data: true }];

corpus('EVTX parser under seeded structural mutation', () => {
  it('200 mutated files: records and warnings, or a parse_error naming no path', () => {
    const seeds = [corpusPath('evtx', 'chainsaw', 'security_sample.evtx'), corpusPath('evtx', 'attack-samples', 'LM_sysmon_psexec_smb_meterpreter.evtx')].map((f) => new Uint8Array(readFileSync(f)));
    const random = mulberry32(0xe7c);
    let results = 0;
    let warned = 0;
    for (let i = 0; i < 200; i++) {
      const { bytes } = mutateEvtx(seeds[i % seeds.length]!, random);
      let outcome: ReturnType<typeof parseEvtx>;
      try {
        outcome = parseEvtx(bytes, MODES[i % MODES.length]);
      } catch (err) {
        expect(err).toBeInstanceOf(VitrineError);
        expect((err as VitrineError).code).toBe('parse_error');
        expect((err as VitrineError).message).not.toMatch(/\//);
        continue;
      }
      results++;
      if (outcome.summary.warningCount > 0) warned++;
      for (const r of outcome.records) expect(r.offset + r.size).toBeLessThanOrEqual(bytes.length);
      for (const w of outcome.summary.warnings) expect(w.message).not.toMatch(/\//);
    }
    // The mutations reach the parser's warning paths rather than being refused as a whole.
    expect(results).toBeGreaterThan(150);
    expect(warned).toBeGreaterThan(100);
  });
});
