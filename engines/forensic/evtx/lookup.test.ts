// One record found without walking the file: by its offset (one chunk parsed) and by its identifier (chunk headers read).
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { CHUNK_SIZE, EvtxParser, FILE_HEADER_SIZE, type EvtxReader, type EvtxRecord } from './index.js';

/** A reader over bytes in memory that counts what it was asked to read. */
function readerOf(bytes: Uint8Array): EvtxReader & { read: number } {
  const r = {
    size: bytes.length,
    read: 0,
    readInto(into: Uint8Array, position: number): number {
      const part = bytes.subarray(Math.min(position, bytes.length), Math.min(position + into.length, bytes.length));
      into.set(part);
      r.read += part.length;
      return part.length;
    },
  };
  return r;
}

const walk = (bytes: Uint8Array): EvtxRecord[] => [...new EvtxParser({ json: false, xml: true }).recordsFromReaderSync(readerOf(bytes))];
const at = (bytes: Uint8Array | EvtxReader, offset: number): EvtxRecord | null =>
  new EvtxParser({ json: false, xml: true }).recordAtSync(bytes instanceof Uint8Array ? readerOf(bytes) : bytes, offset);
const byId = (bytes: Uint8Array | EvtxReader, id: number): EvtxRecord | null =>
  new EvtxParser({ json: false, xml: true }).recordByIdSync(bytes instanceof Uint8Array ? readerOf(bytes) : bytes, id);

const corpus = hasCorpora() ? describe : describe.skip;

corpus('EVTX record lookup', () => {
  const files = [
    'evtx/evtx-crate/sysmon.evtx',
    'evtx/attack-samples/DE_1102_security_log_cleared.evtx',
    'evtx/attack-samples/LM_sysmon_psexec_smb_meterpreter.evtx',
    'evtx/attack-samples/temp_scheduled_task_4698_4699.evtx',
  ];
  it.each(files)('every record of %s, by offset and by identifier, is the record the walk gives', (name) => {
    const bytes = readFileSync(corpusPath(name));
    const records = walk(bytes);
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(at(bytes, r.offset)).toEqual(r);
      expect(byId(bytes, r.recordId)).toEqual(r);
    }
  }, 120_000);

  it('the first and last record of every chunk of the largest corpus file, reading the file header and one chunk', () => {
    const bytes = readFileSync(corpusPath('evtx/evtx-crate/security.evtx'));
    const records = walk(bytes);
    const ends = records.filter((r, i) => records[i - 1]?.chunk !== r.chunk || records[i + 1]?.chunk !== r.chunk);
    expect(ends.length).toBeGreaterThan(30);
    for (const r of ends) {
      const reader = readerOf(bytes);
      expect(at(reader, r.offset)).toEqual(r);
      expect(reader.read).toBeLessThanOrEqual(FILE_HEADER_SIZE + 4 + CHUNK_SIZE);
      const headers = readerOf(bytes);
      expect(byId(headers, r.recordId)).toEqual(r);
      // Every chunk header once, one chunk parsed.
      expect(headers.read).toBeLessThanOrEqual(FILE_HEADER_SIZE + Math.ceil((bytes.length - FILE_HEADER_SIZE) / CHUNK_SIZE) * 512 + CHUNK_SIZE);
    }
  }, 120_000);

  it('no record where none starts: inside the file header, a chunk header, between records, past the end', () => {
    const bytes = readFileSync(corpusPath('evtx/evtx-crate/sysmon.evtx'));
    const [first] = walk(bytes);
    for (const offset of [0, 100, FILE_HEADER_SIZE, FILE_HEADER_SIZE + 100, (first?.offset ?? 0) + 8, bytes.length, bytes.length + CHUNK_SIZE, -1, 1.5, Number.MAX_SAFE_INTEGER + 2])
      expect(at(bytes, offset)).toBeNull();
    expect(byId(bytes, 0)).toBeNull();
    expect(byId(bytes, 10_000_000)).toBeNull();
  });

  it('damaged or cut files answer null or a parse_error, never a crash, hang or a wrong record', () => {
    const bytes = readFileSync(corpusPath('evtx/evtx-crate/sysmon.evtx'));
    const records = walk(bytes);
    const last = records[records.length - 1]!;
    const mid = records[Math.floor(records.length / 2)]!;

    // Cut inside the last record's chunk, before it: the walk and the lookup both lose it.
    const cut = bytes.subarray(0, last.offset);
    expect(at(cut, last.offset)).toBeNull();
    expect(byId(cut, last.recordId)).toBeNull();
    // Cut after the record: still the walk's record.
    const after = bytes.subarray(0, last.offset + last.size);
    const walked = walk(after).find((r) => r.offset === last.offset) ?? null;
    expect(at(after, last.offset)).toEqual(walked);

    // The file header's signature gone: not an EVTX file, as for the walk.
    const noFileMagic = Uint8Array.from(bytes);
    noFileMagic.fill(0, 0, 8);
    expect(() => at(noFileMagic, mid.offset)).toThrow(VitrineError);
    expect(() => byId(noFileMagic, mid.recordId)).toThrow(/not an EVTX file/);
    // A file shorter than its header.
    expect(() => at(bytes.subarray(0, 3), mid.offset)).toThrow(/not an EVTX file/);
    expect(at(bytes.subarray(0, 200), mid.offset)).toBeNull();

    // The record's chunk signature gone: no record there (the walk skips the chunk too).
    const chunkStart = FILE_HEADER_SIZE + mid.chunk * CHUNK_SIZE;
    const noChunkMagic = Uint8Array.from(bytes);
    noChunkMagic.fill(0, chunkStart, chunkStart + 8);
    expect(walk(noChunkMagic).some((r) => r.offset === mid.offset)).toBe(false);
    expect(at(noChunkMagic, mid.offset)).toBeNull();
    expect(byId(noChunkMagic, mid.recordId)).toBeNull();

    // The record's own signature gone.
    const noRecordMagic = Uint8Array.from(bytes);
    noRecordMagic.fill(0, mid.offset, mid.offset + 2);
    expect(at(noRecordMagic, mid.offset)).toBeNull();

    // A record size out of range: the chunk's walk stops there, so does the lookup.
    const badSize = Uint8Array.from(bytes);
    new DataView(badSize.buffer).setUint32(mid.offset + 4, 0xfffffff0, true);
    expect(at(badSize, mid.offset)).toBeNull();

    // The chunk header's identifier range damaged (its checksum then fails): no range holds the identifier, so the
    // chunks whose header cannot be trusted are searched, and the record is the walk's; offsets work as before.
    const badRange = Uint8Array.from(bytes);
    new DataView(badRange.buffer).setBigUint64(chunkStart + 24, 0n, true);
    new DataView(badRange.buffer).setBigUint64(chunkStart + 32, 0n, true);
    const walkedBadRange = walk(badRange).find((r) => r.recordId === mid.recordId) ?? null;
    expect(walkedBadRange?.xml).toBe(mid.xml);
    expect(byId(badRange, mid.recordId)).toEqual(walkedBadRange);
    expect(at(badRange, mid.offset)?.xml).toBe(mid.xml);
    // A copy whose record-identifier range says first..last, with a header checksum that holds.
    const withRange = (first: bigint, last: bigint): Uint8Array => {
      const copy = Uint8Array.from(bytes);
      const view = new DataView(copy.buffer);
      view.setBigUint64(chunkStart + 24, first, true);
      view.setBigUint64(chunkStart + 32, last, true);
      view.setUint32(chunkStart + 124, crc32(copy.subarray(chunkStart + 128, chunkStart + 512), crc32(copy.subarray(chunkStart, chunkStart + 120))), true);
      return copy;
    };
    // A range written backwards: the header is not believed either.
    const backwards = withRange(9_000_000n, 1n);
    expect(byId(backwards, mid.recordId)).toEqual(walk(backwards).find((r) => r.recordId === mid.recordId) ?? null);
    expect(byId(backwards, mid.recordId)?.xml).toBe(mid.xml);
    // A wrong but plausible range is believed: the record is not looked for in that chunk.
    expect(byId(withRange(9_000_000n, 9_000_001n), mid.recordId)).toBeNull();
    expect(byId(bytes, 10_000_000)).toBeNull();

    // Random bytes in the record's chunk: whatever comes back is what the walk gives at that offset.
    let seed = 7;
    for (let round = 0; round < 20; round++) {
      const flipped = Uint8Array.from(bytes);
      for (let k = 0; k < 16; k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const pos = chunkStart + (seed % CHUNK_SIZE);
        flipped[pos] = (flipped[pos] ?? 0) ^ (1 << (seed >>> 29));
      }
      const expected = walk(flipped).find((r) => r.offset === mid.offset) ?? null;
      expect(at(flipped, mid.offset)).toEqual(expected);
    }
  }, 120_000);
});
