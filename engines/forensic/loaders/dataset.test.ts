// The dataset-json and preproc formats: the shipped examples, supplied ids never trusted, invalid records as warnings, bad headers refused, the shipped schema.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../test/corpora.js';
import { ingestArtifact, type IngestResult } from '../ingest.js';
import { datasetEventSchema, datasetJsonSchema, plainDatasetEvent } from './dataset.js';
import { escapePreproc, unescapePreproc } from './preproc.js';
import { refusal } from '../../core/errors.fixture.js';

const resources = path.join(REPO_ROOT, 'resources', 'forensic');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function loadText(text: string, name = 'input'): IngestResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'forensic-dataset-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, name), text);
  return ingestArtifact(name, { evidenceRoot: dir });
}

const header = { format: 'vitrine.forensic.dataset', version: 1 };

describe('dataset-json', () => {
  it('loads the shipped example, keeping supplied ids as attributes only', () => {
    const r = ingestArtifact(path.join(resources, 'examples', 'dataset.json'), { evidenceRoot: resources });
    expect(r.artifact).toMatchObject({ kind: 'dataset-json', detectedBy: 'content', reliability: 'F', events: 4, warningCount: 0 });
    expect(r.events.map((e) => e.action)).toEqual(['auth.login.failure', 'auth.login.success', 'account.create', 'process.exec']);
    const created = r.events[2]!;
    expect(created.attributes['suppliedId']).toBe('0000000000000000');
    expect(created.eventId).not.toBe('0000000000000000');
    expect(created.eventId).toBe(created.integrityHash.slice(0, 16));
    expect(created.time).toEqual({ time: '2024-05-01T10:02:00Z', precision: 'second', source: 'bash history timestamp' });
    expect(r.events[0]?.host).toBe('web01');
    expect(r.events[3]?.time).toEqual({ time: null, precision: 'none', source: 'dataset: no time' });
  });

  it('skips invalid events with a warning naming the field, and refuses a wrong header', () => {
    const doc = { ...header, events: [{ time: '2024-01-01T00:00:00Z', action: 'Not Dotted' }, { time: '2024-01-01T00:00:00', action: 'a.b' }, { time: null, action: 'a.b', extra: 1 }, { time: null, action: 'ok.one' }] };
    const r = loadText(JSON.stringify(doc));
    expect(r.events.map((e) => e.action)).toEqual(['a.b', 'ok.one']);
    expect(r.artifact.warningCounts).toEqual({ invalid_event: 2, bad_time: 1 });
    expect(r.artifact.warnings.map((w) => w.message)).toEqual([
      'an event does not match the dataset format (action: does not match the expected pattern)',
      'an event time is not an ISO 8601 time with a zone',
      'an event does not match the dataset format (extra: unknown field)',
    ]);
    expect(r.artifact.warnings.map((w) => w.record)).toEqual([1, 2, 3]);
    const err = refusal(() => loadText(JSON.stringify({ format: 'vitrine.forensic.dataset', version: 2, events: [] })));
    expect(err.code).toBe('parse_error');
    expect(refusal(() => loadText(JSON.stringify(doc).slice(0, 60))).code).toBe('parse_error');
  });

  it('reads the JSON-lines form line by line, with byte offsets', () => {
    const lines = [JSON.stringify({ ...header, host: 'h1' }), JSON.stringify({ time: '2024-01-01T00:00:00Z', action: 'a.b', id: 'x' }), '{"time": null, "act', ''];
    const r = loadText(lines.join('\n'));
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ host: 'h1', raw: { recordNumber: 2, offset: (lines[0] as string).length + 1 }, attributes: { suppliedId: 'x' } });
    expect(r.artifact.warningCounts).toEqual({ bad_json: 1 });
  });

  it('skips an event nested past the limit with a warning naming where, at any depth, and keeps the others', () => {
    const nested = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const event = (n: number): string => `{"time":"2024-01-01T00:00:00Z","action":"a.b","attributes":{"deep":${nested(n)}}}`;
    const lines = [JSON.stringify(header), event(3), event(2_000), event(200_000), event(60)];
    const r = loadText(lines.join('\n'));
    expect(r.events).toHaveLength(2);
    expect(r.artifact.warningCounts).toEqual({ invalid_event: 2 });
    expect(r.artifact.warnings[0]?.message).toMatch(/^an event does not match the dataset format \(attributes\.deep(\.a)+: nested deeper than 66 levels\)$/);
  });

  it('clips attribute texts longer than 16,384 characters at any depth, with a warning, as EVTX data is clipped', () => {
    const long = 'x'.repeat(20_000);
    const lines = [JSON.stringify(header), JSON.stringify({ time: null, action: 'process.exec', attributes: { commandLine: long, n: 1, deep: [{ a: long, b: 'kept' }], short: 'y' } }), JSON.stringify({ time: null, action: 'a.b', attributes: { s: 'x'.repeat(16_384) } })];
    const r = loadText(lines.join('\n'));
    expect(r.events).toHaveLength(2);
    const a = r.events[0]!.attributes as Record<string, unknown>;
    expect(Object.keys(a)).toEqual(['commandLine', 'n', 'deep', 'short']);
    expect(a['commandLine']).toBe(`${'x'.repeat(16_384)}…`);
    expect(a['deep']).toEqual([{ a: `${'x'.repeat(16_384)}…`, b: 'kept' }]);
    expect(a['short']).toBe('y');
    expect((r.events[1]!.attributes as Record<string, unknown>)['s']).toHaveLength(16_384);
    expect(r.artifact.warningCounts).toEqual({ value_clipped: 1 });
    expect(r.artifact.warnings[0]).toMatchObject({ record: 2 });
  });

  it('takes by hand only events the schema takes, with the same fields', () => {
    const base = { time: '2024-01-01T00:00:00Z', host: 'h1', action: 'process.create', actor: { name: 'a.exe', type: 'process' }, object: { type: 'file', name: 'b' }, summary: 's', attributes: { pid: '1', data: { k: [1, 'x', null, true] } }, id: 'i' };
    const variants: unknown[] = [
      base,
      { time: null, action: 'a' },
      { time: '2024-01-01T00:00:00Z', time_precision: 'second', time_source: 's', host: null, actor: null, object: null, action: 'a.b_c', event_id: 'e', integrity_hash: 'h' },
      { ...base, time: undefined },
      { ...base, time: 5 },
      { ...base, time: 'x'.repeat(65) },
      { ...base, time_precision: 'hour' },
      { ...base, host: '' },
      { ...base, host: 7 },
      { ...base, action: 'Not.Dotted' },
      { ...base, action: 'a..b' },
      { ...base, action: 'a'.repeat(129) },
      { ...base, actor: { type: 'process' } },
      { ...base, actor: { type: 'alien', name: 'x' } },
      { ...base, actor: { type: 'process', name: 'x', extra: 1 } },
      { ...base, object: { type: 'file', name: '' } },
      { ...base, object: [] },
      { ...base, summary: 'x'.repeat(4097) },
      { ...base, id: 'x'.repeat(257) },
      { ...base, extra: 1 },
      { ...base, attributes: [] },
      { ...base, attributes: null },
      { ...base, attributes: { ['k'.repeat(129)]: 1 } },
      { ...base, attributes: { n: Infinity } },
      { ...base, attributes: { deep: { n: [Number.NaN] } } },
      JSON.parse('{"time":null,"action":"a","attributes":{"x":{"__proto__":{"y":1}}}}'),
      [],
      null,
      'text',
    ];
    let plain = 0;
    for (const v of variants) {
      const fast = plainDatasetEvent(v);
      const slow = datasetEventSchema.safeParse(v);
      if (fast !== null) {
        plain++;
        expect(slow.success).toBe(true);
        expect(fast).toEqual(slow.data);
        expect(Object.keys(fast.actor ?? {})).toEqual(Object.keys(slow.data?.actor ?? {}));
      }
    }
    expect(plain).toBe(3);
    expect(plainDatasetEvent({ ...base, extra: 1 })).toBeNull();
  });

  it('gives the same events whichever order a line states an entity\'s keys in', () => {
    const event = (actor: string): string => `{"time":"2024-01-01T00:00:00Z","action":"process.create","actor":${actor},"object":{"name":"b.exe","type":"process"},"attributes":{"pid":"1"}}`;
    const typeFirst = loadText([JSON.stringify(header), event('{"type":"process","name":"a.exe"}')].join('\n')).events[0];
    const nameFirst = loadText([JSON.stringify(header), event('{"name":"a.exe","type":"process"}')].join('\n')).events[0];
    expect(Object.keys(nameFirst?.actor ?? {})).toEqual(['type', 'name']);
    expect(Object.keys(nameFirst?.object ?? {})).toEqual(['type', 'name']);
    // The lines differ, so the raw record hashes differ; everything else is the same.
    expect({ ...nameFirst, raw: null, eventId: null, integrityHash: null }).toEqual({ ...typeFirst, raw: null, eventId: null, integrityHash: null });
    expect(JSON.stringify(nameFirst?.actor)).toBe(JSON.stringify(typeFirst?.actor));
  });

  it('ships a JSON Schema that matches the validator', () => {
    expect(JSON.parse(readFileSync(path.join(resources, 'dataset.schema.json'), 'utf8'))).toEqual(datasetJsonSchema());
  });
});

describe('preproc', () => {
  it('loads the shipped example: epoch and zoned times, escapes, extra columns as attributes', () => {
    const r = ingestArtifact(path.join(resources, 'examples', 'preproc.tsv'), { evidenceRoot: resources });
    expect(r.artifact).toMatchObject({ kind: 'preproc', reliability: 'D', events: 3, warningCount: 0 });
    expect(r.events.map((e) => e.time.time)).toEqual(['2024-05-01T10:00:01Z', '2024-05-01T10:00:07.250Z', '2024-05-01T10:02:00Z']);
    expect(r.events[0]).toMatchObject({ actor: { type: 'network', name: '198.51.100.23' }, object: { type: 'host', name: 'web01' }, attributes: { sourceIp: '198.51.100.23' } });
    expect(r.events[2]?.summary).toBe('useradd -m -G sudo support2\tsecond field');
    expect(r.events[2]?.attributes).toEqual({});
  });

  it('reads columns named after Object.prototype members as columns: extra ones kept as attributes of that name', () => {
    const text = ['#vitrine-preproc\t1', '#fields\ttime\taction\t__proto__\tconstructor\ttoString', '2024-01-01T00:00:00Z\tok.one\tp\tc\tt', '2024-01-01T00:00:01Z\tok.two\t-\t-\t-'].join('\n');
    const r = loadText(text);
    expect(r.events.map((e) => e.action)).toEqual(['ok.one', 'ok.two']);
    expect(JSON.parse(JSON.stringify(r.events[0]?.attributes))).toEqual(JSON.parse('{"__proto__":"p","constructor":"c","toString":"t"}'));
    expect(Object.getPrototypeOf(r.events[0]?.attributes)).toBe(Object.prototype);
    expect(r.events[1]?.attributes).toEqual({});
  });

  it('escapes round-trip', () => {
    for (const v of ['plain', 'tab\there', 'new\nline', 'back\\slash', '-', 'cr\rx']) expect(unescapePreproc(escapePreproc(v))).toBe(v);
    expect(escapePreproc('')).toBe('-');
  });

  it('warns on bad lines and refuses a file without its header', () => {
    const text = ['#vitrine-preproc\t1', '#fields\ttime\taction\tactor_type\tactor', '2024-01-01T00:00:00Z\tok.one\tuser\talice', 'not-a-time\tok.two\t-\t-', '2024-01-01T00:00:00Z\tBAD\t-\t-', '2024-01-01T00:00:00Z\tok.three\tweird\tx', '2024-01-01T00:00:00Z\tcut'].join('\n');
    const r = loadText(text);
    expect(r.events.map((e) => [e.action, e.actor?.type ?? null])).toEqual([
      ['ok.one', 'user'],
      ['ok.three', 'other'],
    ]);
    expect(r.artifact.warningCounts).toEqual({ bad_time: 1, bad_action: 1, bad_entity_type: 1, column_count: 1 });
    expect(refusal(() => loadText('#vitrine-preproc\t2\n#fields\ttime\taction\n')).code).toBe('parse_error');
    const noHeader = mkdtempSync(path.join(tmpdir(), 'forensic-dataset-'));
    dirs.push(noHeader);
    writeFileSync(path.join(noHeader, 'x.tsv'), '2024-01-01T00:00:00Z\ta.b\n');
    expect(refusal(() => ingestArtifact('x.tsv', { evidenceRoot: noHeader, kind: 'preproc' })).code).toBe('parse_error');
  });
});
