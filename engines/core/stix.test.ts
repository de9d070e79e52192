// Tests for STIX 2.1: UUIDv5 vectors, deterministic ids, builders, and the validator on the OASIS examples.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { VitrineError } from './errors.js';
import { patternComparisons, patternValues, scoValue } from './stix-import.js';
import {
  STIX_NAMESPACE,
  assertStixObject,
  attackPattern,
  bundle,
  identity,
  indicator,
  intrusionSet,
  malware,
  mitreAttackReference,
  note,
  opinion,
  relationship,
  report,
  stixId,
  stixTimestamp,
  tool,
  uuidv5,
  validateStixObject,
  type StixObject,
} from './stix.js';
import { skipWithout, SYSTEM_PYTHON } from '../../test/oracles.js';

const T0 = '2024-03-01T12:00:00.000Z';
const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('uuidv5', () => {
  // Vectors from Python's uuid module (/usr/bin/python3 -c 'import uuid; print(uuid.uuid5(ns, name))').
  it('matches Python uuid.uuid5', () => {
    expect(uuidv5(DNS_NAMESPACE, 'python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
    expect(uuidv5(STIX_NAMESPACE, '{"value":"198.51.100.3"}')).toBe('28bb3599-77cd-5a82-a950-b5bc3caf07c4');
    expect(uuidv5(STIX_NAMESPACE, '{"value":"example.com"}')).toBe('bedb4899-d24b-5401-bc86-8f6b4cc18ec7');
    expect(uuidv5(STIX_NAMESPACE, '{"name":"café ☃"}')).toBe('7bab6a44-12ce-5c66-b783-2a42d76e6e0a');
  });

  it('sets version 5 and the RFC 4122 variant', () => {
    for (const name of ['', 'a', 'x'.repeat(1000)]) expect(uuidv5(STIX_NAMESPACE, name)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv5(STIX_NAMESPACE.toUpperCase(), 'a')).toBe(uuidv5(STIX_NAMESPACE, 'a'));
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidv5('not-a-uuid', 'a')).toThrow(VitrineError);
  });

  const python = SYSTEM_PYTHON;
  it.skipIf(skipWithout('python3'))('agrees with Python on further names', () => {
    const names = ['{"value":"10.0.0.1"}', '{"name":"APT1","identity_class":"group"}', 'ünïcödé 😀', '\t"quoted"\n'];
    const script = `import sys, uuid, json\nns = uuid.UUID(sys.argv[1])\nfor n in json.loads(sys.argv[2]): print(uuid.uuid5(ns, n))`;
    const out = execFileSync(python, ['-c', script, STIX_NAMESPACE, JSON.stringify(names)], { encoding: 'utf8' }).trim().split('\n');
    expect(out).toEqual(names.map((n) => uuidv5(STIX_NAMESPACE, n)));
  });
});

describe('stixId', () => {
  it('is the type plus UUIDv5 of the canonical JSON of the identity', () => {
    expect(stixId('ipv4-addr', { value: '198.51.100.3' })).toBe('ipv4-addr--28bb3599-77cd-5a82-a950-b5bc3caf07c4');
    // Key order does not matter: the identity is canonicalised first.
    expect(stixId('identity', { name: 'A', identity_class: 'group' })).toBe(stixId('identity', { identity_class: 'group', name: 'A' }));
    expect(stixId('identity', { name: 'A' })).not.toBe(stixId('identity', { name: 'B' }));
    // As in the spec, the UUID part depends on the identity only; the type prefix keeps ids apart.
    expect(stixId('tool', { name: 'A' }).slice('tool--'.length)).toBe(stixId('malware', { name: 'A' }).slice('malware--'.length));
  });

  it('refuses bad type names', () => {
    expect.hasAssertions();
    for (const t of ['', 'IP', 'a', 'a--b', 'x y', '-ab']) expect(() => stixId(t, {})).toThrow(VitrineError);
  });
});

describe('stixTimestamp', () => {
  it('writes exactly milliseconds with Z', () => {
    expect(stixTimestamp(new Date(Date.UTC(2016, 3, 6, 20, 3, 0)))).toBe('2016-04-06T20:03:00.000Z');
    expect(stixTimestamp('2016-04-06T20:03:00Z')).toBe('2016-04-06T20:03:00.000Z');
    expect(stixTimestamp('2013-02-19T00:00:00.000000Z')).toBe('2013-02-19T00:00:00.000Z');
    expect(stixTimestamp('2013-02-19T00:00:00.9999Z')).toBe('2013-02-19T00:00:00.999Z');
    expect(stixTimestamp('2013-02-19T00:00:00.5Z')).toBe('2013-02-19T00:00:00.500Z');
    expect(stixTimestamp('0099-01-01T00:00:00Z')).toBe('0099-01-01T00:00:00.000Z');
  });

  it('refuses other forms and impossible dates without echoing them', () => {
    for (const bad of ['2016-04-06', '2016-04-06T20:03:00+01:00', '2016-02-30T00:00:00Z', '2016-04-06T24:00:00Z', '2016-13-01T00:00:00Z', 'SECRET-VALUE-123']) {
      let err: unknown;
      try {
        stixTimestamp(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).message).not.toContain(bad);
    }
    expect(() => stixTimestamp(new Date(Number.NaN))).toThrow(VitrineError);
  });
});

describe('builders', () => {
  const author = identity({ name: 'Vitrine', identity_class: 'system' }, { created: T0 });

  it('give every SDO the common properties', () => {
    expect(author).toEqual({
      type: 'identity',
      spec_version: '2.1',
      id: stixId('identity', { name: 'Vitrine', identity_class: 'system' }),
      created: T0,
      modified: T0,
      name: 'Vitrine',
      identity_class: 'system',
    });
    expect(validateStixObject(author)).toEqual([]);
  });

  it('call a type named after an Object.prototype member not a STIX type, and do not throw on it', () => {
    for (const type of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const o = { type, spec_version: '2.1', id: `${type}--6ba7b810-9dad-41d1-80b4-00c04fd430c8`, created: T0, modified: T0, object_refs: [] };
      const issues = validateStixObject(o as unknown as Parameters<typeof validateStixObject>[0]);
      expect(issues.map((i) => i.path), type).toContain('type');
    }
  });

  it('derive ids from identity, not from timestamps', () => {
    const a = malware({ name: 'PoisonIvy', is_family: true }, { created: T0 });
    const b = malware({ name: 'PoisonIvy', is_family: true, description: 'RAT' }, { created: '2025-01-01T00:00:00Z', modified: '2025-02-01T00:00:00Z' });
    expect(a.id).toBe(b.id);
    expect(b.modified).toBe('2025-02-01T00:00:00.000Z');
    // A different creator makes a different object.
    expect(malware({ name: 'PoisonIvy', is_family: true }, { created: T0, created_by_ref: author.id }).id).not.toBe(a.id);
  });

  it('builds an attack pattern with its mitre-attack reference', () => {
    const ap = attackPattern({ name: 'Process Hollowing', mitre_id: 'T1055.012' }, { created: T0 });
    expect(ap['external_references']).toEqual([{ source_name: 'mitre-attack', external_id: 'T1055.012', url: 'https://attack.mitre.org/techniques/T1055/012' }]);
    expect(ap.id).toBe(stixId('attack-pattern', { source_name: 'mitre-attack', external_id: 'T1055.012' }));
    // The id follows the technique, so a renamed technique stays the same object.
    expect(attackPattern({ name: 'Renamed', mitre_id: 'T1055.012' }, { created: T0 }).id).toBe(ap.id);
    expect(mitreAttackReference('T1059').url).toBe('https://attack.mitre.org/techniques/T1059');
    expect(() => mitreAttackReference('T59')).toThrow(VitrineError);
    expect(validateStixObject(ap)).toEqual([]);
  });

  it('builds an intrusion set keyed by its ATT&CK group id', () => {
    const apt1 = intrusionSet({ name: 'APT1', mitre_id: 'G0006', aliases: ['Comment Crew'], first_seen: '2006-06-01T18:13:15Z' }, { created: T0, confidence: 80 });
    expect(apt1).toMatchObject({
      type: 'intrusion-set',
      name: 'APT1',
      aliases: ['Comment Crew'],
      first_seen: '2006-06-01T18:13:15.000Z',
      confidence: 80,
      external_references: [{ source_name: 'mitre-attack', external_id: 'G0006', url: 'https://attack.mitre.org/groups/G0006' }],
    });
    expect(apt1['mitre_id']).toBeUndefined();
    expect(() => intrusionSet({ name: 'x', mitre_id: 'T1000' })).toThrow(VitrineError);
    expect(validateStixObject(apt1)).toEqual([]);
  });

  it('builds tools, indicators, relationships, reports, notes and opinions that validate', () => {
    const t = tool({ name: 'mimikatz', tool_types: ['credential-exploitation'] }, { created: T0 });
    const ind = indicator({ pattern: "[ipv4-addr:value = '198.51.100.3']", valid_from: T0, indicator_types: ['malicious-activity'] }, { created: T0 });
    expect(ind['pattern_type']).toBe('stix');
    const set = intrusionSet({ name: 'APT1' }, { created: T0 });
    const rel = relationship({ relationship_type: 'uses', source_ref: set.id, target_ref: t.id }, { created: T0 });
    const rep = report({ name: 'Assessment', published: T0, object_refs: [set.id, t.id, rel.id], report_types: ['threat-actor'] }, { created: T0, created_by_ref: author.id });
    const n = note({ content: 'Leading hypothesis: APT1', object_refs: [set.id], authors: ['Vitrine'] }, { created: T0 });
    const op = opinion({ opinion: 'agree', object_refs: [set.id], explanation: 'likely (0.72)' }, { created: T0 });
    for (const o of [t, ind, rel, rep, n, op]) expect(validateStixObject(o)).toEqual([]);
    expect(rel).toMatchObject({ source_ref: set.id, target_ref: t.id });
    // Reports list the same objects whatever order the caller gave.
    expect(report({ name: 'Assessment', published: T0, object_refs: [rel.id, t.id, set.id] }, { created: T0, created_by_ref: author.id }).id).toBe(rep.id);
  });

  it('refuse invalid input with paths, never values', () => {
    expect.hasAssertions();
    const bad: (() => unknown)[] = [
      () => relationship({ relationship_type: 'uses', source_ref: 'SECRET-VALUE-123', target_ref: 'tool--x' }, { created: T0 }),
      () => report({ name: 'r', published: T0, object_refs: [] }, { created: T0 }),
      () => opinion({ opinion: 'SECRET-VALUE-123' as 'agree', object_refs: [author.id] }, { created: T0 }),
      () => malware({ name: 'm', is_family: true }, { created: T0, modified: '2000-01-01T00:00:00Z' }),
      () => tool({ name: 't' }, { created: T0, created_by_ref: stixId('tool', { name: 'SECRET-VALUE-123' }) }),
      () => tool({ name: 't' }, { created: T0, confidence: 101 }),
      () => indicator({ pattern: 'p', valid_from: 'SECRET-VALUE-123' }),
    ];
    for (const build of bad) {
      let err: unknown;
      try {
        build();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect(JSON.stringify({ m: (err as VitrineError).message, d: (err as VitrineError).details })).not.toContain('SECRET');
    }
  });

  it('default created to now and modified to created', () => {
    const t = tool({ name: 'x' });
    expect(t['created']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(t['modified']).toBe(t['created']);
  });
});

describe('bundle', () => {
  const a = tool({ name: 'a' }, { created: T0 });
  const b = tool({ name: 'b' }, { created: T0 });

  it('has an id from its contents, independent of order, and drops exact duplicates', () => {
    const one = bundle([a, b, a]);
    expect(one.objects).toEqual([a, b]);
    expect(one.id).toMatch(/^bundle--[0-9a-f-]{36}$/);
    expect(bundle([b, a]).id).toBe(one.id);
    expect(bundle([a]).id).not.toBe(one.id);
    expect(Object.keys(one)).toEqual(['type', 'id', 'objects']);
    expect(validateStixObject(one)).toEqual([]);
  });

  it('keeps two versions of one object', () => {
    const newer = tool({ name: 'a' }, { created: T0, modified: '2024-04-01T00:00:00Z' });
    expect(newer.id).toBe(a.id);
    expect(bundle([a, newer]).objects).toHaveLength(2);
  });

  it('refuses invalid members with their position', () => {
    let err: unknown;
    try {
      bundle([a, { type: 'tool', id: 'tool--nope' }]);
    } catch (e) {
      err = e;
    }
    expect((err as VitrineError).details?.map((d) => d.path)).toContain('objects[1].id');
  });
});

describe('validateStixObject', () => {
  const good = (): Record<string, unknown> => ({ ...tool({ name: 'mimikatz' }, { created: T0 }) });

  it('reports missing and malformed properties by path', () => {
    expect.hasAssertions();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good(), name: undefined }, 'name', 'required'],
      [{ ...good(), spec_version: '2.0' }, 'spec_version', 'must be 2.1'],
      [{ ...good(), id: 'malware--28bb3599-77cd-5a82-a950-b5bc3caf07c4' }, 'id', 'must be an identifier of the form tool--<uuid>'],
      [{ ...good(), created: '2024-03-01' }, 'created', 'must be an RFC 3339 UTC timestamp'],
      [{ ...good(), modified: undefined }, 'modified', 'required'],
      [{ ...good(), created_by_ref: 'nope' }, 'created_by_ref', 'must be an identifier'],
      [{ ...good(), object_marking_refs: ['nope'] }, 'object_marking_refs[0]', 'must be an identifier'],
      [{ ...good(), external_references: [{ url: 'x' }] }, 'external_references[0].source_name', 'required'],
      [{ ...good(), kill_chain_phases: [{ kill_chain_name: 'k' }] }, 'kill_chain_phases[0].phase_name', 'required'],
      [{ ...good(), type: 'gadget', id: stixId('gadget', {}) }, 'type', 'not a STIX 2.1 object type'],
      [{ ...good(), confidence: 5.5 }, 'confidence', 'must be an integer from 0 to 100'],
    ];
    for (const [obj, path, issue] of cases) expect(validateStixObject(obj)).toContainEqual({ path, issue });
  });

  it('accepts custom x- objects and SCOs without created/modified', () => {
    expect(validateStixObject({ ...good(), type: 'x-mitre-tactic', id: stixId('x-mitre-tactic', { a: 1 }) })).toEqual([]);
    expect(validateStixObject({ type: 'ipv4-addr', id: stixId('ipv4-addr', { value: '198.51.100.3' }), value: '198.51.100.3' })).toEqual([]);
    expect(validateStixObject({ type: 'ipv4-addr', id: stixId('ipv4-addr', { value: '' }) })).toContainEqual({ path: 'value', issue: 'required' });
  });

  it('rejects things that are not objects, and assertStixObject throws with the first path', () => {
    expect(validateStixObject(null)).toEqual([{ path: '', issue: 'expected an object' }]);
    expect(validateStixObject([1])).toEqual([{ path: '', issue: 'expected an object' }]);
    expect(validateStixObject({ id: 'x' })).toEqual([{ path: 'type', issue: 'missing or invalid type' }]);
    expect(() => assertStixObject({ ...good(), name: 5 })).toThrow('invalid STIX object at name: must be a string');
    expect(() => assertStixObject(good())).not.toThrow();
  });

  it('never quotes values', () => {
    const secret = 'SECRET-VALUE-123';
    const problems = validateStixObject({ type: 'bundle', id: secret, objects: [{ ...good(), created: secret, name: [secret], created_by_ref: secret, type: 'tool' }] });
    expect(problems.length).toBeGreaterThan(2);
    expect(JSON.stringify(problems)).not.toContain(secret);
  });
});

describe.skipIf(!hasCorpora())('OASIS STIX 2.1 examples', () => {
  const dir = corpusPath('cti', 'stix21-examples');
  const truth = JSON.parse(readFileSync(corpusPath('cti', 'GROUND_TRUTH.json'), 'utf8')) as Record<string, { objects: number; types: Record<string, number> } | undefined>;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('has the example files', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const file of files) {
    it(`${file} validates with no problems and matches the ground truth`, () => {
      const doc = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { type: string; objects: StixObject[] };
      expect(validateStixObject(doc)).toEqual([]);
      const expected = truth[`stix21-examples/${file}`];
      expect(expected).toBeDefined();
      expect(doc.objects).toHaveLength(expected?.objects ?? -1);
      const types: Record<string, number> = {};
      for (const o of doc.objects) types[o.type] = (types[o.type] ?? 0) + 1;
      expect(types).toEqual(expected?.types);
    });
  }

  it('detects damage done to a real example', () => {
    const doc = JSON.parse(readFileSync(`${dir}/apt1.json`, 'utf8')) as { objects: Record<string, unknown>[] };
    const report = doc.objects.findIndex((o) => o['type'] === 'report');
    const ind = doc.objects.findIndex((o) => o['type'] === 'indicator');
    delete doc.objects[report]!['published'];
    doc.objects[ind]!['valid_from'] = 'yesterday';
    const problems = validateStixObject(doc);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: `objects[${ind}].valid_from`, issue: 'must be an RFC 3339 UTC timestamp' },
        { path: `objects[${report}].published`, issue: 'required' },
      ]),
    );
  });
});

describe('STIX pattern tokenizer', () => {
  // The regex this tokenizer replaced: quadratic on long runs, kept here only as the oracle on short patterns.
  const ORACLE = /([a-z0-9-]+:[A-Za-z0-9_.'*[\]-]+)\s*(NOT\s+)?(=|!=|<>|<=|>=|<|>|MATCHES|LIKE|IN|ISSUBSET|ISSUPERSET)\s*('(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|\([^)]*\))/g;

  it('finds the comparisons the regex found, on 20,000 random patterns built from STIX pieces', () => {
    expect.hasAssertions();
    let s = 7;
    const r = (): number => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const pieces = ['[', ']', ' ', 'ipv4-addr:value', 'file:hashes.\'SHA-256\'', 'domain-name:value', ' = ', '=', ' != ', ' NOT ', ' IN ', ' MATCHES ', "'10.0.0.1'", "'a\\'b'", '42', '-3.5', "('a', 'b')", ' AND ', ' OR ', ' FOLLOWEDBY ', ' WITHIN 5 SECONDS', " START t'2020-01-01T00:00:00Z'", 'x', '(', ')', "'", 'Ab:c', '-', 'IN', 'LIKE', 'b', '5', '\\', '.', ':'];
    for (let c = 0; c < 20000; c++) {
      let p = '';
      const len = 1 + Math.floor(r() * 12);
      for (let k = 0; k < len; k++) p += pieces[Math.floor(r() * pieces.length)];
      const expected = [...p.matchAll(ORACLE)].map((m) => [m[1], m[2] !== undefined, m[3], m[4]]);
      expect(patternComparisons(p).map((m) => [m.path, m.negated, m.op, m.literal]), p).toEqual(expected);
    }
  });

  it('reads a 100,000-character hostile pattern to the end and still finds its values', () => {
    const hostile = `${'a-'.repeat(50_000)}[ipv4-addr:value = '10.0.0.1']`;
    expect(patternValues(hostile).values).toEqual([{ type: 'ipv4', value: '10.0.0.1' }]);
    const colons = `${'a:b '.repeat(25_000)}[domain-name:value = 'example.org']`;
    expect(patternValues(colons).values).toEqual([{ type: 'domain', value: 'example.org' }]);
    expect(patternValues(`[x:y = '${"\\'".repeat(30_000)}`).values).toEqual([]);
  });
});

describe('the indicator an SCO holds itself', () => {
  it('is read for the indicator types only, never for a type named after an Object.prototype member', () => {
    const sco = (type: string): StixObject => ({ type, id: `${type}--6ba7b810-9dad-41d1-80b4-00c04fd430c8`, value: '198.51.100.7' }) as unknown as StixObject;
    expect(scoValue(sco('ipv4-addr'))).toEqual({ type: 'ipv4', value: '198.51.100.7' });
    for (const type of ['constructor', 'toString', '__proto__']) expect(scoValue(sco(type)), type).toBeUndefined();
  });
});
