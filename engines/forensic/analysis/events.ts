// What the analysis reads of an event (AnalysisEvent), the slim form analyzePaths keeps of each ingested event, and the way back to full events.
import type { ForensicEvent, RawRecordRef } from '../event.js';

/**
 * The fields stages 3 to 7 read. A ForensicEvent is one; analyzePaths keeps only these (no summary, integrity hash,
 * loader or raw-record offsets and hashes: about 300 bytes less an event) and reads full events back from the
 * artefacts when an export asks for them (fullEvents).
 */
export type AnalysisEvent = Pick<ForensicEvent, 'eventId' | 'time' | 'host' | 'actor' | 'action' | 'object' | 'attributes' | 'reliability' | 'kind'> & {
  readonly raw: Pick<RawRecordRef, 'artifactSha256'>;
  /** Slim records only: the raw record's number in its file (0 inside a directory artefact), to read the event back. */
  readonly record?: number;
};

/** True when the event carries every ForensicEvent field (it came from analyzeEvents or run, not a slim record). */
export function isFullEvent(e: AnalysisEvent): e is ForensicEvent {
  return 'integrityHash' in e;
}

/**
 * One slim record per call. The id is copied flat: `integrityHash.slice(0, 16)` is a V8 sliced string that would keep
 * the whole 64-character hash alive. `raw` is one shared object per artefact.
 */
export function slimEvent(e: ForensicEvent, raw: Pick<RawRecordRef, 'artifactSha256'>): AnalysisEvent {
  return Object.freeze({
    eventId: JSON.parse(`"${e.eventId}"`) as string,
    time: e.time,
    host: e.host,
    actor: e.actor,
    action: e.action,
    object: e.object,
    attributes: e.attributes,
    reliability: e.reliability,
    kind: e.kind,
    raw,
    record: e.raw.member === undefined ? e.raw.recordNumber : 0,
  });
}
