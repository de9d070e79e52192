// forensic.record: an EVTX event's raw record read again from its chunk, checked against the case's hashes.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { EvtxParser, type EvtxRecord } from '../evtx/index.js';
import { readRawRecord, type RecordPayload } from './raw-record.js';

const EVENT_ID = '0123456789abcdef';

function payloadOf(root: string, file: string, bytes: Uint8Array, r: EvtxRecord): RecordPayload {
  return {
    evidenceRoot: root,
    eventId: EVENT_ID,
    path: file,
    kind: 'evtx',
    artifactSha256: sha256Hex(bytes),
    recordNumber: r.recordId,
    offset: r.offset,
    length: r.size,
    rawSha256: sha256Hex(bytes.subarray(r.offset, r.offset + r.size)),
  };
}

const walk = (file: string): EvtxRecord[] => [...new EvtxParser({ json: false, xml: true }).recordsFromFileSync(file)];

function errorOf(fn: () => unknown): VitrineError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    const e = err as VitrineError;
    expect(e.message).not.toMatch(/\/|\.evtx/);
    return e;
  }
  throw new Error('expected an error');
}

const corpus = hasCorpora() ? describe : describe.skip;

corpus('the raw record of an EVTX event', () => {
  const root = realpathSync(corpusPath('evtx'));
  const scratch = mkdtempSync(path.join(tmpdir(), 'vitrine-raw-record-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(['evtx-crate/security.evtx', 'evtx-crate/system.evtx', 'attack-samples/LM_WMI_4624_4688_TargetHost.evtx'])(
    'records of %s: the walk’s XML, verified, by offset and by record number alone',
    (file) => {
      const bytes = readFileSync(path.join(root, file));
      const records = walk(path.join(root, file));
      const sample = records.filter((_, i) => i % 97 === 0 || i === records.length - 1);
      for (const r of sample) {
        const p = payloadOf(root, file, bytes, r);
        expect(readRawRecord(p)).toEqual({ eventId: EVENT_ID, format: 'xml', content: r.xml, verified: true });
        const { offset: _o, length: _l, ...byNumber } = p;
        expect(readRawRecord(byNumber)).toEqual({ eventId: EVENT_ID, format: 'xml', content: r.xml, verified: true });
      }
    },
    120_000,
  );

  it('a file changed since the case is not verified, or its record is not found (a clear 404)', () => {
    const original = readFileSync(path.join(root, 'evtx-crate/sysmon.evtx'));
    const records = walk(path.join(root, 'evtx-crate/sysmon.evtx'));
    const r = records[Math.floor(records.length / 2)]!;
    const p = payloadOf(scratch, 'changed.evtx', original, r);
    const write = (bytes: Uint8Array): void => writeFileSync(path.join(scratch, 'changed.evtx'), bytes);

    write(original);
    expect(readRawRecord(p).verified).toBe(true);

    // A byte of the record changed (its header's written time): shown, not verified.
    const inRecord = Uint8Array.from(original);
    inRecord[r.offset + 16] = (inRecord[r.offset + 16] ?? 0) ^ 0x01;
    write(inRecord);
    expect(readRawRecord(p).verified).toBe(false);

    // A byte elsewhere in the file: the artefact no longer hashes as recorded.
    const elsewhere = Uint8Array.from(original);
    elsewhere[original.length - 1] = (elsewhere[original.length - 1] ?? 0) ^ 0x01;
    write(elsewhere);
    expect(readRawRecord(p)).toMatchObject({ content: r.xml, verified: false });

    // Another record number at that offset than the case recorded.
    write(original);
    expect(readRawRecord({ ...p, recordNumber: r.recordId + 1 }).verified).toBe(false);

    // No record at the offset any more, or the file cut before it.
    const gone = Uint8Array.from(original);
    gone.fill(0, r.offset, r.offset + 4);
    for (const bytes of [gone, original.subarray(0, r.offset), original.subarray(0, r.offset + 10)]) {
      write(bytes);
      const e = errorOf(() => readRawRecord(p));
      expect(e.code).toBe('not_found');
      expect(e.message).toBe('the record was not found again in its artefact');
    }

    // No longer an EVTX file at all.
    const noHeader = Uint8Array.from(original);
    noHeader.fill(0, 0, 8);
    write(noHeader);
    expect(errorOf(() => readRawRecord(p)).code).toBe('parse_error');
    write(new Uint8Array(0));
    expect(errorOf(() => readRawRecord(p)).code).toBe('parse_error');
  });

  it('a record without a byte range of a line format is still a 404; without a record number either, for EVTX', () => {
    const bytes = readFileSync(path.join(root, 'evtx-crate/sysmon.evtx'));
    const [r] = walk(path.join(root, 'evtx-crate/sysmon.evtx'));
    const { offset: _o, length: _l, recordNumber: _n, ...bare } = payloadOf(root, 'evtx-crate/sysmon.evtx', bytes, r!);
    expect(errorOf(() => readRawRecord(bare)).code).toBe('not_found');
    expect(errorOf(() => readRawRecord({ ...bare, kind: 'authlog', recordNumber: 1 })).code).toBe('not_found');
  });
});
