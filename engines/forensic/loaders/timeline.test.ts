// The timeline loader against GROUND_TRUTH.json for plaso's outputs, the cloud JSON lines and Timesketch files; times, supplied ids, damage.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { ingestArtifact, type IngestResult } from '../ingest.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function loadText(text: string | Buffer, name = 'timeline.txt'): IngestResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'forensic-timeline-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, name), text);
  return ingestArtifact(name, { evidenceRoot: dir });
}

function load(rel: string): IngestResult {
  return ingestArtifact(corpusPath('logs', rel), { evidenceRoot: corpusPath() });
}

function count(r: IngestResult, key: (a: Readonly<Record<string, unknown>>) => unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of r.events) {
    const k = String(key(e.attributes));
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

corpus('timeline on GROUND_TRUTH.json', () => {
  const truth = JSON.parse(readFileSync(corpusPath('logs', 'GROUND_TRUTH.json'), 'utf8')) as Record<string, Record<string, unknown>>;

  it('l2tcsv.log: 19 events, the 17 columns, events per parser', () => {
    const t = truth['plaso/l2tcsv.log'] as { events: number; columns: string[]; parsers: Record<string, number> };
    const r = load('plaso/l2tcsv.log');
    expect(r.artifact).toMatchObject({ kind: 'timeline', detectedBy: 'content', events: t.events });
    expect(readFileSync(corpusPath('logs', 'plaso', 'l2tcsv.log'), 'utf8').split('\n')[0]).toBe(t.columns.join(','));
    expect(count(r, (a) => a['parser'])).toEqual(t.parsers);
    expect(r.events[0]).toMatchObject({ time: { time: '2012-01-22T07:52:33Z', precision: 'second' }, host: 'myhostname.myhost.com', action: 'syslog.message' });
    const cron = r.events.filter((e) => e.action === 'cron.command');
    // The commands read from l2t CSV's columns equal the `command` plaso put in its JSON output.
    const fromJson = load('plaso/json_line.log').events.filter((e) => e.attributes['data_type'] === 'syslog:cron:task_run');
    expect(cron.map((e) => [e.actor?.name, e.object?.name]).sort()).toEqual(fromJson.map((e) => [e.attributes['username'], e.attributes['command']]).sort());
    expect(cron).toHaveLength(3);
    expect(r.artifact.warningCount).toBe(0);
  });

  it('json_line.log: 20 events, data types as plaso wrote them, microsecond times', () => {
    const t = truth['plaso/json_line.log'] as { events: number; data_types: Record<string, number> };
    const r = load('plaso/json_line.log');
    expect(r.events).toHaveLength(t.events);
    expect(count(r, (a) => a['data_type'])).toEqual(t.data_types);
    expect(r.events[0]?.time).toEqual({ time: '2012-01-22T07:52:33.000000Z', precision: 'microsecond', source: 'plaso timestamp (Content Modification Time)' });
    expect(r.events.filter((e) => e.attributes['data_type'] === 'fs:stat').map((e) => e.action).sort()).toEqual(['file.access', 'file.access', 'file.metadata_change', 'file.modify']);
  });

  it('l2ttln.log and dynamic.log: 20 events each, past the header', () => {
    for (const f of ['plaso/l2ttln.log', 'plaso/dynamic.log']) {
      const r = load(f);
      expect(r.events).toHaveLength((truth[f] as { events_excl_header: number }).events_excl_header);
      expect(r.artifact.warningCount).toBe(0);
      expect(r.artifact.firstTime).toBe('2012-01-22T07:52:33Z');
    }
  });

  it('the cloud audit JSON lines: records, actors and operations', () => {
    const expected: Record<string, [string, string]> = {
      'plaso/gcp_logging.jsonl': ['gcp-logging', 'beta.compute.networks.insert'],
      'plaso/aws_cloudtrail.jsonl': ['aws-cloudtrail', 'DescribeInstances'],
      'plaso/azure_activity_log.jsonl': ['azure-activity', 'Microsoft.Compute/disks/delete'],
    };
    for (const [f, [format, operation]] of Object.entries(expected)) {
      const r = load(f);
      expect(r.events).toHaveLength((truth[f] as { records: number }).records);
      expect(count(r, (a) => a['format'])).toEqual({ [format]: r.events.length });
      expect(r.events[0]?.attributes['operation']).toBe(operation);
      expect(r.events.every((e) => e.time.time !== null)).toBe(true);
    }
    const aws = load('plaso/aws_cloudtrail.jsonl').events[0]!;
    expect(aws).toMatchObject({ actor: { type: 'user', name: 'fakeusername' }, time: { time: '2022-02-07T22:23:37Z' }, attributes: { sourceIp: '1.2.3.4', region: 'ap-southeast-2', suppliedId: '0828c0d2-3589-4390-b954-c78b4a7df44b' } });
    expect(load('plaso/gcp_logging.jsonl').events[0]).toMatchObject({ actor: { name: 'fakeemailxyz@gmail.com' }, attributes: { sourceIp: '1.1.1.1' } });
  });

  it('Timesketch CSV and JSON lines: rows, multi-line fields, and ids that are kept but never trusted', () => {
    const csv = load('timesketch/evtx_part.csv');
    expect(csv.events).toHaveLength((truth['timesketch/evtx_part.csv'] as { rows: number }).rows);
    expect(csv.events.every((e) => e.action === 'windows.event' && e.raw.length !== undefined)).toBe(true);
    const first = csv.events[0]!;
    expect(String(first.attributes['xml_string'])).toContain('<EventID Qualifiers="16384">7036</EventID>');
    expect(first.attributes['suppliedId']).toBe('35');
    expect(first.eventId).not.toBe('35');
    expect(first.time).toMatchObject({ time: '2012-03-14T04:17:38.276340Z', precision: 'microsecond' });
    expect(first.raw.length).toBeGreaterThan(1000);
    expect(load('timesketch/sigma_events.csv').events).toHaveLength((truth['timesketch/sigma_events.csv'] as { rows: number }).rows);
    const jsonl = load('timesketch/sigma_events.jsonl');
    expect(jsonl.events).toHaveLength((truth['timesketch/sigma_events.jsonl'] as { records: number }).records);
    // The datetime field wins over a timestamp that disagrees with it.
    expect(jsonl.events[0]?.time.time).toBe('2015-07-24T19:01:01Z');
  });

  it('a copy of evtx_part.csv cut inside a multi-line field keeps the rows before it', () => {
    const source = readFileSync(corpusPath('logs', 'timesketch', 'evtx_part.csv'));
    const cut = source.indexOf('<EventData>', source.length / 2);
    const r = loadText(source.subarray(0, cut), 'part.csv');
    expect(r.artifact.kind).toBe('timeline');
    expect(r.artifact.warningCounts).toEqual({ unterminated_record: 1 });
    const whole = load('timesketch/evtx_part.csv').events;
    expect(r.events.length).toBeGreaterThan(0);
    expect(r.events.length).toBeLessThan(whole.length);
    expect(r.events.map((e) => e.raw.rawSha256)).toEqual(whole.slice(0, r.events.length).map((e) => e.raw.rawSha256));
  });
});

describe('timeline formats', () => {
  it('l2t CSV converts a named time zone to UTC', () => {
    const header = 'date,time,timezone,MACB,source,sourcetype,type,user,host,short,desc,version,filename,inode,notes,format,extra';
    const row = '07/04/2021,12:00:00,America/New_York,M...,FILE,File stat,Content Modification Time,-,h1,/etc/passwd,/etc/passwd changed,2,OS:/etc/passwd,42,-,filestat,-';
    const r = loadText(`${header}\n${row}\n${row.replace('America/New_York', 'Nowhere/Atlantis')}\n`);
    expect(r.events[0]).toMatchObject({ time: { time: '2021-07-04T16:00:00Z' }, action: 'file.modify', object: { type: 'file', name: '/etc/passwd' } });
    expect(r.events[1]?.time.time).toBeNull();
    expect(r.artifact.warningCounts).toEqual({ unknown_zone: 1 });
  });

  it('keeps columns, members and l2t extra keys named after Object.prototype members as own attributes', () => {
    const own = (o: object | undefined, k: string): unknown => (o === undefined ? undefined : Object.getOwnPropertyDescriptor(o, k)?.value);
    const csv = loadText('message,datetime,timestamp_desc,__proto__,constructor\nm,2020-01-01T00:00:00+00:00,t,p,c\n', 'sketch.csv');
    expect(csv.events).toHaveLength(1);
    expect(Object.getPrototypeOf(csv.events[0]!.attributes)).toBe(Object.prototype);
    expect([own(csv.events[0]?.attributes, '__proto__'), own(csv.events[0]?.attributes, 'constructor')]).toEqual(['p', 'c']);
    const jsonl = loadText('{"message":"m","datetime":"2020-01-01T00:00:00+00:00","timestamp_desc":"t","__proto__":"p","toString":"s"}\n', 'sketch.jsonl');
    expect([own(jsonl.events[0]?.attributes, '__proto__'), own(jsonl.events[0]?.attributes, 'toString')]).toEqual(['p', 's']);
    const header = 'date,time,timezone,MACB,source,sourcetype,type,user,host,short,desc,version,filename,inode,notes,format,extra';
    const row = '07/04/2021,12:00:00,UTC,M...,FILE,File stat,Content Modification Time,-,h1,/etc/passwd,/etc/passwd changed,2,OS:/etc/passwd,42,-,filestat,__proto__: p; constructor: c';
    const l2t = loadText(`${header}\n${row}\n`, 'l2t.csv');
    expect(l2t.events[0]?.attributes).toMatchObject({ 'extra.__proto__': 'p', 'extra.constructor': 'c' });
  });

  it('TLN keeps pipes inside the description', () => {
    const r = loadText('Time|Source|Host|User|Description|TZ|Notes\n1327218753|LOG|h|-|a | b | c|UTC|n\n1327218754|LOG|h\n');
    expect(r.events.map((e) => e.attributes['description'])).toEqual(['a | b | c']);
    expect(r.artifact.warningCounts).toEqual({ column_count: 1 });
  });

  it('turns broken JSON lines and unknown records into warnings', () => {
    const good = '{"message":"m","datetime":"2020-01-01T00:00:00+00:00","timestamp_desc":"t"}';
    const r = loadText(`${good}\n{"unknown":1}\n[1,2]\n{"message":"cut", "datet`);
    expect(r.events).toHaveLength(1);
    expect(r.artifact.warningCounts).toEqual({ unrecognised_record: 2, bad_json: 1 });
    expect(r.artifact.warnings.at(-1)).toMatchObject({ code: 'bad_json', line: 4, message: 'the last line is cut short or not JSON' });
  });

  it('cuts every text a JSON line gives an event to 4,096 characters: entities, host, action, time source and attributes', () => {
    const big = 'x'.repeat(200_000);
    const plaso = JSON.stringify({ __container_type__: 'event', data_type: big, timestamp: 1437764461000000, timestamp_desc: big, message: big, hostname: big, filename: big, username: big });
    const sketch = JSON.stringify({ message: big, datetime: '2015-07-24T19:01:01+00:00', timestamp_desc: big, hostname: big, username: big, extra: big });
    const cloud = JSON.stringify({ EventId: 'e1', EventName: big, EventSource: big, EventTime: '2022-02-08 09:23:37+11:00', Username: big, Resources: [{ ResourceName: big }] });
    const r = loadText(['{"message":"m","datetime":"2020-01-01T00:00:00+00:00","timestamp_desc":"t"}', plaso, sketch, cloud].join('\n'));
    expect(r.events).toHaveLength(4);
    const longest = (v: unknown): number => (typeof v === 'string' ? v.length : v !== null && typeof v === 'object' ? Math.max(0, ...Object.values(v).map(longest)) : 0);
    for (const e of r.events) expect(longest(e)).toBeLessThanOrEqual(4096 + 64);
  });

  it('skips a JSON line nested past 64 levels with a warning and keeps the lines around it', () => {
    const good = '{"message":"m","datetime":"2020-01-01T00:00:00+00:00","timestamp_desc":"t"}';
    const deep = (n: number): string => `{"message":"d","datetime":"2020-01-01T00:00:01+00:00","timestamp":${'['.repeat(n)}1${']'.repeat(n)}}`;
    const r = loadText([good, deep(100_000), deep(40), good].join('\n'));
    expect(r.events).toHaveLength(3);
    expect(r.artifact.warningCounts).toEqual({ unrecognised_record: 1 });
    expect(r.artifact.warnings[0]).toMatchObject({ line: 2, message: 'a JSON line is nested deeper than 64 levels' });
  });
});

corpus('a CSV timeline with a stray quote', () => {
  it('scans each line once while a quoted field stays open across thousands of lines, and loads the rows after it', () => {
    const [header, first, ...rest] = readFileSync(corpusPath('logs', 'timesketch', 'sigma_events.csv'), 'utf8').split('\n').filter((l) => l !== '');
    // A stray quote opens a field at the first row, 3,000 lines of quoted empty fields follow, a lone quote closes it.
    const filler = Array.from({ length: 3000 }, () => '"",""');
    const text = [header, `"${first}`, ...filler, '"', ...rest].join('\n');
    // Quote scanning is counted by String.prototype.indexOf calls: once per line is a few per line; rescanning the
    // open record at every line is the square of the lines (about 18 million here).
    const indexOf = String.prototype.indexOf;
    let calls = 0;
    String.prototype.indexOf = function (this: string, ...args: Parameters<string['indexOf']>): number {
      calls++;
      return indexOf.apply(this, args);
    };
    let r: IngestResult;
    try {
      r = loadText(text, 'events.csv');
    } finally {
      String.prototype.indexOf = indexOf;
    }
    expect(calls).toBeLessThan(100 * filler.length);
    expect(r.artifact.kind).toBe('timeline');
    // The merged record (the first row to the closing quote) is one event with a column_count warning; the rows after it load.
    expect(r.artifact.warningCounts).toEqual({ column_count: 1 });
    expect(r.events.map((e) => e.raw.recordNumber)).toEqual([2, ...rest.map((_, i) => filler.length + 4 + i)]);
  });
});

describe('a CSV record left open', () => {
  it('is dropped and reported once it passes maxChars characters, before the line limit', async () => {
    const { csvRecords, linesOf } = await import('../text.js');
    const text = ['a,b', '"x,', ...Array.from({ length: 50 }, () => 'y'.repeat(40)), 'c,d'].join('\n');
    const dropped: number[] = [];
    const records = [...csvRecords(linesOf([Buffer.from(text)]), { maxChars: 1000, onUnterminated: (line) => dropped.push(line) })];
    expect(dropped).toEqual([2]);
    // After the drop the walk starts afresh: the rest of the open field is read as records of its own.
    expect(records[0]?.fields).toEqual(['a', 'b']);
    expect(records.at(-1)?.fields).toEqual(['c', 'd']);
  });
});
