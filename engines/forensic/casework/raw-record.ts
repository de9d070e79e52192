// The raw record of one event, read again from the evidence on demand (a worker job): EVTX records rendered as XML from their BinXml, line formats as their bytes.
import path from 'node:path';
import { z } from 'zod';
import { sha256Hex } from '../../core/canonical.js';
import type { EventRawRecord } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { ARTIFACT_KINDS } from '../event.js';
import { resolveEvidence, withEvidenceFile } from '../evidence.js';
import { EvtxParser } from '../evtx/index.js';

export const RECORD_JOB = 'forensic.record';
/** A raw record longer than this is not shown (an EVTX record is at most a 64 KiB chunk). */
export const MAX_RAW_BYTES = 1024 * 1024;

const sha = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * Payload of `forensic.record`: the artefact (relative to the evidence root, from the case's inventory), the hashes the
 * case recorded, and where the record lies. `evidenceRoot` comes from configuration, never from a request.
 */
export const recordPayloadSchema = z.strictObject({
  evidenceRoot: z.string().min(1).max(4096),
  eventId: z.string().regex(/^[0-9a-f]{16,64}$/),
  path: z.string().min(1).max(4096),
  kind: z.enum(ARTIFACT_KINDS),
  artifactSha256: sha,
  member: z.string().min(1).max(1024).optional(),
  memberSha256: sha.optional(),
  /** The record number of the raw reference (for EVTX, the record identifier in the record's header). */
  recordNumber: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
  length: z.number().int().min(0).optional(),
  rawSha256: sha,
});
export type RecordPayload = z.input<typeof recordPayloadSchema>;

/** Reads the record again: checks the artefact still hashes as recorded and the record's bytes as the event's rawSha256. */
export function readRawRecord(payload: unknown, ctx?: JobContext): EventRawRecord {
  const p = validate(recordPayloadSchema, payload, 'job payload', 'bad_request');
  if (!path.isAbsolute(p.evidenceRoot)) throw new VitrineError('bad_request', 'the evidence root must be an absolute path');
  const byRange = p.offset !== undefined && p.length !== undefined;
  if (!byRange && (p.kind !== 'evtx' || p.recordNumber === undefined))
    throw new VitrineError('not_found', 'this kind of record has no byte range in its artefact; its parsed fields are all there is');
  if (p.length !== undefined && p.length > MAX_RAW_BYTES) throw new VitrineError('payload_too_large', 'the raw record is too large to show');
  const artefact = resolveEvidence(p.evidenceRoot, p.path);
  const target = p.member !== undefined ? resolveEvidence(p.evidenceRoot, path.join(artefact.real, p.member)) : artefact;
  if (target.isDirectory) throw new VitrineError('not_found', 'the record lies in a folder artefact without a member file');
  const expected = p.member !== undefined ? p.memberSha256 : p.artifactSha256;
  ctx?.progress(0, 'hashing the artefact');
  return withEvidenceFile(
    target.real,
    (file) => {
      const sameArtefact = expected !== undefined && file.sha256() === expected;
      ctx?.progress(0.5, 'reading the record');
      const sameBytes = (bytes: Buffer, length: number): boolean => bytes.length === length && sha256Hex(bytes) === p.rawSha256;
      if (p.kind === 'evtx') {
        // Only the record's chunk is parsed (its BinXml needs that chunk's templates and strings, nothing else): the one
        // holding the stored offset, else the chunks whose header's identifier range holds the record number.
        const parser = new EvtxParser({ json: false, xml: true });
        const r = byRange ? parser.recordAtSync(file, p.offset ?? 0) : parser.recordByIdSync(file, p.recordNumber ?? 0);
        if (r === null) throw new VitrineError('not_found', 'the record was not found again in its artefact');
        const length = p.length ?? r.size;
        const sameRecord = sameBytes(file.read(r.offset, length), length) && (p.recordNumber === undefined || r.recordId === p.recordNumber);
        return { eventId: p.eventId, format: 'xml', content: r.xml ?? '', verified: sameArtefact && sameRecord };
      }
      const offset = p.offset ?? 0;
      const length = p.length ?? 0;
      const bytes = file.read(offset, length);
      return { eventId: p.eventId, format: 'text', content: bytes.toString('utf8'), verified: sameArtefact && sameBytes(bytes, length) };
    },
    target.root,
  );
}
