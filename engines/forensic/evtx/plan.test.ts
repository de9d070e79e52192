// Records rendered from template plans (plan.ts) equal those the element tree renders, on every corpus file.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dataOfParts, parseEvtx, userSidOfParts, type EvtxRecord } from './index.js';
import { K, valueNode, VT, type XText } from './ir.js';
import { compileJson, fillJson, fillText, hasProbeMark, P } from './plan.js';

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

  it('give the tree path records with the data map and user SID alone, equal to what the parts rendering holds', () => {
    let records = 0;
    let withData = 0;
    let withSid = 0;
    for (const file of files()) {
      const bytes = readFileSync(file);
      const planned = parseEvtx(bytes, { json: false, data: true });
      const again = parseEvtx(bytes, { json: false, data: true });
      const tree = parseEvtx(bytes, { json: false, data: true, xml: true });
      const parts = parseEvtx(bytes, { json: false, parts: true, xml: true });
      expect(again.records).toEqual(planned.records);
      expect(planned.records).toEqual(withoutXml(tree.records));
      expect(planned.records).toHaveLength(parts.records.length);
      planned.records.forEach((r, i) => {
        const whole = parts.records[i]!.parts!;
        expect(r.parts).toBeUndefined();
        expect(r.data).toEqual(dataOfParts(whole));
        expect(r.userSid).toBe(userSidOfParts(whole));
        if (Object.keys(r.data!).length > 0) withData++;
        if (r.userSid !== null) withSid++;
      });
      records += planned.records.length;
    }
    expect(records).toBeGreaterThan(7000);
    expect(withData).toBeGreaterThan(1000);
    expect(withSid).toBeGreaterThan(100);
  });
});

describe('probe marks in evidence', () => {
  it('are seen in rendered text, so a record holding one gets no plan', () => {
    expect(hasProbeMark('C:\\Windows\\System32')).toBe(false);
    expect(hasProbeMark('x\ue0000\ue001y')).toBe(true);
    expect(hasProbeMark('\ue001')).toBe(true);
  });

  it.skipIf(!hasCorpora())('records whose values hold marks render as the tree path renders them', () => {
    const bytes = Buffer.from(readFileSync(files()[0]!));
    // Every UTF-16 "Microsoft" (a value of most records' provider) becomes a text that looks like a probe.
    const from = Buffer.from('Microsoft', 'utf16le');
    const to = Buffer.from('\ue0000\ue001osoft', 'utf16le');
    let changed = 0;
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + from.length)) {
      to.copy(bytes, at);
      changed++;
    }
    expect(changed).toBeGreaterThan(0);
    const planned = parseEvtx(bytes, { json: true, parts: true });
    const again = parseEvtx(bytes, { json: true, parts: true });
    const tree = parseEvtx(bytes, { json: true, parts: true, xml: true });
    expect(again.records).toEqual(planned.records);
    expect(planned.records).toEqual(withoutXml(tree.records));
  });
});

describe('plan text nodes', () => {
  it('fill a text that is one slot alone with the value text, as the pieces would', () => {
    const text = (s: string): XText => ({ k: K.Text, s, t: VT.String, v: null, items: undefined }) as XText;
    const values = [text('a'), valueNode(VT.UInt32, 7), valueNode(VT.Real64, 0.5), valueNode(VT.String, 'x', [text('p'), text('q')]), text('')];
    const plan = compileJson({ alone: '\ue0001\ue001', around: 'n=\ue0000\ue001;', two: '\ue0002\ue001\ue0003\ue001', nested: ['\ue0004\ue001'] }, values.length);
    expect(plan?.p).toBe(P.Obj);
    expect(plan?.items.map((i) => i.p)).toEqual([P.Slot, P.Text, P.Text, P.Arr]);
    expect(plan?.items[3]?.items[0]?.p).toBe(P.Slot);
    const pieces = (slot: number): (string | number)[] => ['', slot, ''];
    expect(fillJson(plan!, values)).toEqual({
      alone: fillText(pieces(1), values),
      around: 'n=a;',
      two: fillText(pieces(2), values) + fillText(pieces(3), values),
      nested: [''],
    });
  });
});
