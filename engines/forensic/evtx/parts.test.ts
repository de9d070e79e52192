// The `parts` rendering (EventData, UserData and System/Security only) against the whole event's JSON, on every corpus record.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { EvtxParser, type JsonObject, type JsonValue } from './index.js';
import { K, type XElement, type XNode } from './ir.js';
import { dataOfParts, dataPlanOf, userSidOfParts, userSidPlanOf } from './data.js';
import { compileJson, fillJson, type PlanNode } from './plan.js';
import { eventJson, eventParts } from './render.js';

const corpus = hasCorpora() ? describe : describe.skip;

/** The value a chain of key lookups finds (undefined past a non-object), as a reader of the JSON does it. */
function lookup(v: JsonValue | undefined, ...keys: string[]): JsonValue | undefined {
  let at = v;
  for (const k of keys) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as JsonObject)[k];
  }
  return at;
}

const LOOKUPS = [['Event', 'EventData'], ['Event', 'UserData'], ['Event', 'System', 'Security'], ['Event', 'System', 'Security', '#attributes', 'UserID']];

corpus('EVTX parts rendering', () => {
  it('finds what the whole event JSON holds under EventData, UserData and System/Security, for every corpus record', () => {
    let records = 0;
    let withData = 0;
    let withSid = 0;
    for (const dir of ['evtx-crate', 'attack-samples', 'chainsaw']) {
      for (const name of readdirSync(corpusPath('evtx', dir)).filter((f) => f.endsWith('.evtx'))) {
        for (const r of new EvtxParser({ json: true, parts: true }).records(readFileSync(corpusPath('evtx', dir, name)))) {
          records++;
          for (const keys of LOOKUPS) expect(lookup(r.parts, ...keys), `${dir}/${name} record ${r.recordId} ${keys.join('.')}`).toEqual(lookup(r.event, ...keys));
          if (lookup(r.parts, 'Event', 'EventData') !== undefined) withData++;
          if (typeof lookup(r.parts, 'Event', 'System', 'Security', '#attributes', 'UserID') === 'string') withSid++;
        }
      }
    }
    // The comparison covered records with data and with a user SID, not only empty ones.
    expect(records).toBeGreaterThan(5000);
    expect(withData).toBeGreaterThan(1000);
    expect(withSid).toBeGreaterThan(100);
  });
});

describe('EVTX parts rendering of odd trees', () => {
  const text = (s: string): XNode => ({ k: K.Text, s }) as XNode;
  const el = (name: string, children: XNode[], attrs: XElement['attrs'] = []): XElement => ({ k: K.Element, name, attrs, children, dyn: false, dynAttrs: false });

  it('renders the whole event when a child is named __proto__, and leaves out the rest of System otherwise', () => {
    const odd = el('Event', [el('__proto__', [el('EventData', [text('x')])]), el('System', [el('Computer', [text('pc')])])]);
    expect(eventParts(odd)).toEqual(eventJson(odd));
    const plain = el('Event', [el('System', [el('Computer', [text('pc')]), el('Security', [])]), el('EventData', [el('Data', [text('v')], [{ name: 'Name', value: [text('k')] }] as XElement['attrs'])])]);
    expect(eventParts(plain)).toEqual({ Event: { System: { Security: lookup(eventJson(plain), 'Event', 'System', 'Security') ?? null }, EventData: { k: 'v' } } });
    expect(lookup(eventParts(plain), 'Event', 'System', 'Computer')).toBeUndefined();
  });

  it('keeps an entity reference named after an Object.prototype member as written, resolving only the five XML entities', () => {
    const entity = (name: string): XNode => ({ k: K.EntityRef, name }) as XNode;
    const names = ['constructor', 'toString', '__proto__', 'valueOf', 'amp', 'lt'];
    const tree = el('Event', [el('EventData', [el('Data', names.map(entity))])]);
    expect(lookup(eventJson(tree), 'Event', 'EventData', 'Data')).toEqual({ '#text': '&constructor;&toString;&__proto__;&valueOf;&<' });
  });
});

describe('EVTX data map and user SID read from a plan', () => {
  const slots = 4;
  const plan = (v: JsonValue): PlanNode => compileJson(v, slots)!;
  const fill = (p: PlanNode | null | undefined): JsonValue | undefined => (p === undefined ? undefined : p === null ? {} : fillJson(p, []));

  it('finds what the lookups on the filled JSON find', () => {
    const cases: JsonObject[] = [
      { Event: { EventData: { a: 'x' }, System: { Security: { '#attributes': { UserID: 'S-1-5-18' } } } } },
      { Event: { EventData: 'text', UserData: { first: 'no', inner: { b: 1 }, later: { c: 2 } } } },
      { Event: { UserData: { only: ['array'] } } },
      { Event: { System: { Security: { '#attributes': { UserID: 7 } } } } },
      { Event: { System: { Security: null } } },
      { Other: { EventData: { a: 'x' } } },
      { Event: 'flat' },
    ];
    for (const parts of cases) {
      const p = plan(parts);
      expect(fill(dataPlanOf(p))).toEqual(dataOfParts(parts));
      const sid = userSidPlanOf(p);
      const v = sid === null || sid === undefined ? null : fillJson(sid, []);
      expect(typeof v === 'string' ? v : null).toBe(userSidOfParts(parts));
    }
  });

  it('makes no plan of JSON with a __proto__ key anywhere (filling it would assign that key)', () => {
    const odd = JSON.parse('{"Event":{"__proto__":{"EventData":{"a":"x"}},"System":{}}}') as JsonObject;
    expect(compileJson(odd, slots)).toBeNull();
    const inUserData = JSON.parse('{"Event":{"UserData":{"__proto__":{"a":1}}}}') as JsonObject;
    expect(compileJson(inUserData, slots)).toBeNull();
  });
});
