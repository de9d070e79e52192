// Records rendered from template plans (plan.ts) equal those the element tree renders, on every corpus file.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { parseEvtx, type EvtxRecord } from './index.js';

const corpus = hasCorpora() ? describe : describe.skip;

function files(): string[] {
  return ['evtx-crate', 'attack-samples', 'chainsaw'].flatMap((dir) =>
    readdirSync(corpusPath('evtx', dir))
      .filter((f) => f.endsWith('.evtx'))
      .map((f) => corpusPath('evtx', dir, f)),
  );
}

/** Without the XML: asking for XML makes every record go through the element tree. */
function withoutXml(records: EvtxRecord[]): EvtxRecord[] {
  return records.map(({ xml: _xml, ...rest }) => rest);
}

corpus('render plans', () => {
  it.each([['inline' as const], ['separate' as const]])('give the tree path records, JSON with %s attributes and parts', (jsonAttributes) => {
    let records = 0;
    for (const file of files()) {
      const bytes = readFileSync(file);
      // Twice in one pass: a plan is made the second time a record kind is met, and used from the third.
      const planned = parseEvtx(bytes, { json: true, parts: true, jsonAttributes });
      const again = parseEvtx(bytes, { json: true, parts: true, jsonAttributes });
      const tree = parseEvtx(bytes, { json: true, parts: true, jsonAttributes, xml: true });
      expect(again.records).toEqual(planned.records);
      expect(planned.records).toEqual(withoutXml(tree.records));
      expect(planned.summary).toEqual(tree.summary);
      records += planned.records.length;
    }
    expect(records).toBeGreaterThan(7000);
  });
});
