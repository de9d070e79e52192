// The EVTX parser against the corpus ground truth: GROUND_TRUTH.json counts, the evtx crate's snapshots, chainsaw's output.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { EvtxParser, parseEvtx, type EvtxRecord } from './index.js';

interface TruthEntry {
  records_walked: number;
  min_record_id: number;
  max_record_id: number;
  evtx_crate_expected_ok?: number;
  evtx_crate_expected_err?: number;
  chunks_bad_magic: number[];
}

const corpus = hasCorpora() ? describe : describe.skip;

function truth(): Record<string, TruthEntry> {
  return (JSON.parse(readFileSync(corpusPath('evtx', 'GROUND_TRUTH.json'), 'utf8')) as { files: Record<string, TruthEntry> }).files;
}

function load(rel: string): Uint8Array {
  return readFileSync(corpusPath('evtx', rel));
}

/** The body of an insta snapshot (after its front matter). */
function snapshot(name: string): string {
  const text = readFileSync(corpusPath('evtx', 'evtx-crate', 'snapshots', `test_record_samples__${name}.snap`), 'utf8');
  const body = text.split(/^---$/m).slice(2).join('---');
  return body.replace(/^\n/, '').trimEnd();
}

function first(rel: string, options: Parameters<typeof parseEvtx>[1] = {}): EvtxRecord {
  const record = new EvtxParser(options).records(load(rel)).next().value;
  if (record === undefined || !('recordId' in record)) throw new Error('no record');
  return record;
}

function byEventRecordId(rel: string, id: number, options: Parameters<typeof parseEvtx>[1] = {}): EvtxRecord {
  const record = parseEvtx(load(rel), options).records.find((r) => r.eventRecordId === id);
  if (record === undefined) throw new Error('record not found');
  return record;
}

corpus('EVTX parser on the corpus ground truth', () => {
  const files = Object.entries(truth());

  it.each(files)('%s: record count and id range equal GROUND_TRUTH.json', (rel, t) => {
    const { records, summary } = parseEvtx(load(rel), { json: false });
    // The crate's expectation (recoverable records) when it has one, else the independent header walk.
    expect(records.length).toBe(t.evtx_crate_expected_ok ?? t.records_walked);
    expect(summary.records).toBe(records.length);
    if (t.evtx_crate_expected_ok === undefined) {
      const ids = records.map((r) => r.recordId);
      expect(Math.min(...ids)).toBe(t.min_record_id);
      expect(Math.max(...ids)).toBe(t.max_record_id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    // Every chunk the truth lists with a bad signature is a counted warning.
    expect(summary.warningCounts.chunk_bad_magic ?? 0).toBeGreaterThanOrEqual(t.chunks_bad_magic.length);
    for (const w of summary.warnings) {
      expect(w.offset).toBeGreaterThanOrEqual(0);
      expect(w.message).not.toMatch(/evtx-crate|attack-samples|\//);
    }
  });

  it('dirty files: failures the crate reports as errors are warnings here, and nothing else is lost', () => {
    const bad = parseEvtx(load('evtx-crate/sample_with_a_bad_chunk_magic.evtx'), { json: false }).summary;
    expect(bad.warningCounts.chunk_bad_magic).toBe(2); // crate: 270 ok + 2 errors
    expect(bad.warnings.filter((w) => w.code === 'chunk_bad_magic').map((w) => w.chunk)).toEqual([6, 10]);
    expect(bad.warningCounts.chunk_data_checksum).toBe(3);

    const vss = parseEvtx(load('evtx-crate/2-vss_0-Microsoft-Windows-RemoteDesktopServices-RdpCoreTS%4Operational.evtx'), { json: false }).summary;
    // crate: 1910 ok + 4 errors (two unparsable records, each followed by a broken record boundary)
    expect((vss.warningCounts.record_unparsable ?? 0) + (vss.warningCounts.record_bad_magic ?? 0)).toBe(4);
    expect(vss.warnings.filter((w) => w.code === 'chunk_data_checksum').map((w) => w.chunk)).toEqual([0, 13]);

    const sysmon = parseEvtx(load('evtx-crate/sysmon.evtx'), { json: false }).summary;
    expect(sysmon.chunksParsed).toBe(9); // the header claims one chunk; the other eight are read too
    expect(sysmon.warningCounts.chunk_bad_magic).toBe(8);

    // Checksums flagged as absent are not checked, so a clean file with that flag has no warnings.
    expect(parseEvtx(load('evtx-crate/Application_no_crc32.evtx'), { json: false }).summary.warningCount).toBe(0);
    expect(parseEvtx(load('evtx-crate/security.evtx'), { json: false }).summary.warningCount).toBe(0);
  });

  it('security.evtx first record equals the crate JSON and XML snapshots', () => {
    const record = first('evtx-crate/security.evtx', { xml: true });
    expect(record.event).toEqual(JSON.parse(snapshot('event_json_sample')));
    expect(record.xml).toBe(snapshot('event_xml_sample'));
    expect(record).toMatchObject({
      recordId: 1,
      eventId: 4608,
      qualifiers: null,
      channel: 'Security',
      provider: 'Microsoft-Windows-Security-Auditing',
      computer: '37L4247F27-25',
      timeCreated: '2016-07-08T18:12:51.6816408Z', // evtxexport: 2016-07-08T18:12:51.681640800Z
      chunk: 0,
      offset: 4096 + 512,
    });
    expect(record.timestamp).toBe('2016-07-08T18:12:51.6816408Z'); // evtxexport's written time
  });

  it('security.evtx EventRecordID 2260 keeps trailing spaces (crate XML snapshot)', () => {
    expect(byEventRecordId('evtx-crate/security.evtx', 2260, { xml: true }).xml).toBe(snapshot('event_xml_sample_with_string_with_trailing_spaces'));
  });

  it('system.evtx first record: EventID with Qualifiers, positional Data, empty Binary (crate snapshots)', () => {
    const record = first('evtx-crate/system.evtx', { xml: true });
    expect(record.event).toEqual(JSON.parse(snapshot('event_json_sample_with_event_data_with_attributes_and_text')));
    expect(record.xml).toBe(snapshot('event_xml_sample_with_event_data_with_attributes_and_text'));
    expect(record).toMatchObject({ eventId: 6009, qualifiers: 32768, provider: 'EventLog', channel: 'System' });
  });

  it('forwarded MSExchange event with 27 unnamed Data elements (crate snapshots)', () => {
    const record = first('evtx-crate/MSExchange_Management_wec.evtx', { xml: true });
    expect(record.xml).toBe(snapshot('event_json_with_multiple_data_elements'));
    expect(record.event).toEqual(JSON.parse(snapshot('event_json_with_multiple_data_elements-2')));
    // Forwarded events carry strings: the event id still parses, and the source log's record id is kept apart.
    expect(record).toMatchObject({ eventId: 1, qualifiers: 16384, recordId: 1, eventRecordId: 3229, timeCreated: '2021-11-19T16:52:33.833733500Z' });
  });

  it("chainsaw's 4624 search hits equal this parser's separate-attribute JSON", () => {
    const expected = readFileSync(corpusPath('evtx', 'chainsaw', 'clo_search_q_jsonl_simple_string.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
    const { records } = parseEvtx(load('chainsaw/security_sample.evtx'), { jsonAttributes: 'separate' });
    const hits = records.filter((r) => r.eventId === 4624);
    expect(hits.map((r) => r.eventRecordId)).toEqual([31794, 31799]);
    expect(hits.map((r) => r.event)).toEqual(expected);
    expect(hits.every((r) => r.computer === 'DESKTOP-JK4Q86I')).toBe(true);
  });

  it('reads the same records from a buffer, a file synchronously and a file asynchronously', async () => {
    const rel = 'evtx-crate/sample_with_a_bad_chunk_magic.evtx';
    const fromBuffer = parseEvtx(load(rel));
    const sync = new EvtxParser();
    const fromSync = [...sync.recordsFromFileSync(corpusPath('evtx', rel))];
    const async = new EvtxParser();
    const fromAsync: EvtxRecord[] = [];
    for await (const r of async.recordsFromFile(corpusPath('evtx', rel))) fromAsync.push(r);
    expect(fromSync).toEqual(fromBuffer.records);
    expect(fromAsync).toEqual(fromBuffer.records);
    expect(sync.summary).toEqual(fromBuffer.summary);
    expect(async.summary).toEqual(fromBuffer.summary);
  });
});
