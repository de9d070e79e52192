// Hostile and damaged EVTX input: truncated copies at many offsets and seeded bit-flipped copies never crash or hang.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { CHUNK_SIZE, FILE_HEADER_SIZE, parseEvtx, type EvtxRecord, type EvtxSummary } from './index.js';
import { mulberry32 } from '../../core/random.js';

/** Parses, accepting exactly two outcomes: records with warnings, or a parse_error that names no path. */
function parseGuarded(bytes: Uint8Array, xml = true): { records: EvtxRecord[]; summary: EvtxSummary } | VitrineError {
  try {
    return parseEvtx(bytes, { xml });
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    const e = err as VitrineError;
    expect(e.code).toBe('parse_error');
    expect(e.message).not.toMatch(/\/|\.evtx/);
    return e;
  }
}

function checkShape(result: { records: EvtxRecord[]; summary: EvtxSummary }, length: number): void {
  for (const r of result.records) {
    expect(Number.isInteger(r.recordId)).toBe(true);
    expect(r.offset + r.size).toBeLessThanOrEqual(length);
    expect(r.timestamp).toMatch(/^-?\d{4,5}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
    if (r.xml !== undefined) expect(r.xml.startsWith('<?xml')).toBe(true);
    expect(JSON.parse(JSON.stringify(r.event))).toEqual(r.event);
  }
  expect(result.summary.warningCount).toBeGreaterThanOrEqual(result.summary.warnings.length);
  for (const w of result.summary.warnings) {
    expect(w.offset).toBeGreaterThanOrEqual(0);
    expect(w.offset).toBeLessThanOrEqual(length);
    expect(w.message).not.toMatch(/\//);
  }
}

const corpus = hasCorpora() ? describe : describe.skip;

corpus('damaged EVTX files', () => {
  it('a truncated copy keeps exactly the records that end before the cut, at every offset tried', () => {
    // The two used chunks and one empty chunk slot of a 17-slot file keep each parse small.
    const full = readFileSync(corpusPath('evtx', 'attack-samples', 'DE_1102_security_log_cleared.evtx')).subarray(0, FILE_HEADER_SIZE + 3 * CHUNK_SIZE);
    const whole = parseEvtx(full);
    expect(whole.records.length).toBe(112);
    const cuts = new Set<number>([0, 1, 7, 8, 64, 127, 128, 129, 4095, FILE_HEADER_SIZE, FILE_HEADER_SIZE + 1, FILE_HEADER_SIZE + 511, FILE_HEADER_SIZE + 512]);
    for (let c = FILE_HEADER_SIZE; c < full.length; c += 3989) cuts.add(c);
    // Cuts right at, and one byte inside, the end of records.
    for (const r of whole.records.filter((_, i) => i % 7 === 0)) {
      cuts.add(r.offset + r.size);
      cuts.add(r.offset + r.size - 1);
    }
    cuts.add(FILE_HEADER_SIZE + CHUNK_SIZE);
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      const result = parseGuarded(full.subarray(0, cut), false);
      if (result instanceof VitrineError) {
        // Only a cut inside the signature or the first 128 header bytes is not an EVTX file at all.
        expect(cut).toBeLessThan(128);
        continue;
      }
      checkShape(result, cut);
      expect(result.records).toEqual(whole.records.filter((r) => r.offset + r.size <= cut));
      const insideChunk = cut > FILE_HEADER_SIZE && (cut - FILE_HEADER_SIZE) % CHUNK_SIZE !== 0;
      expect((result.summary.warningCounts.chunk_truncated ?? 0) > 0).toBe(insideChunk);
    }
  });

  it('seeded bit flips anywhere: warnings or a parse_error, never a crash or a hang', () => {
    const clean = readFileSync(corpusPath('evtx', 'chainsaw', 'security_sample.evtx'));
    const random = mulberry32(0x5eed);
    let warned = 0;
    let recovered = 0;
    for (let round = 0; round < 200; round++) {
      const copy = Uint8Array.from(clean);
      const flips = 1 + Math.floor(random() * 8);
      for (let f = 0; f < flips; f++) {
        // Mostly inside the used part of the chunk (header tables, templates, records), sometimes anywhere.
        const used = FILE_HEADER_SIZE + 0x9000;
        const at = random() < 0.85 ? FILE_HEADER_SIZE + Math.floor(random() * (used - FILE_HEADER_SIZE)) : Math.floor(random() * copy.length);
        copy[at]! ^= 1 << Math.floor(random() * 8);
      }
      const result = parseGuarded(copy);
      if (result instanceof VitrineError) continue;
      checkShape(result, copy.length);
      if (result.summary.warningCount > 0) warned++;
      recovered += result.records.length;
    }
    // Most damage is seen (checksums cover the chunk header and records, not slack or the file header's padding),
    // and most records survive a few flipped bits.
    expect(warned).toBeGreaterThan(140);
    expect(recovered).toBeGreaterThan(200 * 5);
  });

  it('seeded byte overwrites inside record bodies and template definitions stay contained to their record', () => {
    const clean = readFileSync(corpusPath('evtx', 'attack-samples', 'LM_sysmon_psexec_smb_meterpreter.evtx'));
    const whole = parseEvtx(clean).records;
    const random = mulberry32(42);
    for (let round = 0; round < 100; round++) {
      const copy = Uint8Array.from(clean);
      const victim = whole[Math.floor(random() * whole.length)]!;
      const at = victim.offset + 24 + Math.floor(random() * (victim.size - 28));
      copy[at] = Math.floor(random() * 256);
      const result = parseGuarded(copy);
      if (result instanceof VitrineError) throw result;
      checkShape(result, copy.length);
      // Records before the damaged one do not depend on its bytes.
      const before = whole.filter((r) => r.offset < victim.offset);
      expect(result.records.slice(0, before.length).map((r) => r.recordId)).toEqual(before.map((r) => r.recordId));
    }
  });

  it('every dirty corpus file parses with counted warnings and no thrown error', () => {
    for (const rel of [
      'evtx-crate/sample_with_a_bad_chunk_magic.evtx',
      'evtx-crate/2-vss_0-Microsoft-Windows-RemoteDesktopServices-RdpCoreTS%4Operational.evtx',
      'evtx-crate/Microsoft-Windows-HelloForBusiness%4Operational.evtx',
      'evtx-crate/Application_no_crc32.evtx',
      'evtx-crate/post-Security.evtx',
      'evtx-crate/sysmon.evtx',
    ]) {
      const bytes = readFileSync(corpusPath('evtx', rel));
      const result = parseGuarded(bytes);
      if (result instanceof VitrineError) throw result;
      checkShape(result, bytes.length);
    }
  });
});

describe('input that is not an EVTX file', () => {
  it.each([
    ['empty', new Uint8Array(0)],
    ['text', new TextEncoder().encode('<Event>not binary xml</Event>')],
    ['signature only', new TextEncoder().encode('ElfFile\0')],
  ])('%s: parse_error without a path', (_name, bytes) => {
    const result = parseGuarded(bytes);
    expect(result).toBeInstanceOf(VitrineError);
  });

  it('a missing file is not_found, with no path in the message', async () => {
    const { EvtxParser } = await import('./index.js');
    const missing = '/nonexistent/dir/file.evtx';
    const read = (): number => [...new EvtxParser().recordsFromFileSync(missing)].length;
    expect(read).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(read).not.toThrow(/nonexistent/);
  });
});

corpus('a chunk whose free-space offset hides its records', () => {
  it('free space set to the header end, checksums recomputed: a chunk_bad_free_space warning and every record', async () => {
    const { crc32 } = await import('node:zlib');
    const clean = readFileSync(corpusPath('evtx', 'chainsaw', 'security_sample.evtx'));
    const whole = parseEvtx(clean);
    expect(whole.records.length).toBe(10);
    const copy = Buffer.from(clean);
    const c = FILE_HEADER_SIZE;
    // Free space at 512 (no records), the records checksum over that empty range and the header checksum recomputed,
    // so every checksum holds; the last record's offset (byte 44) still points past it.
    copy.writeUInt32LE(512, c + 48);
    copy.writeUInt32LE(crc32(copy.subarray(c + 512, c + 512)), c + 52);
    copy.writeUInt32LE(crc32(copy.subarray(c + 128, c + 512), crc32(copy.subarray(c, c + 120))), c + 124);
    const result = parseEvtx(copy);
    expect(result.summary.warningCounts).toEqual({ chunk_bad_free_space: 1 });
    expect(result.records.map((r) => r.recordId)).toEqual(whole.records.map((r) => r.recordId));
  });
});
