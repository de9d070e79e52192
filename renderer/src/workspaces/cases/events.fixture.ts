// Exported events for the Cases tests: the fields a loader fills, numbered by `i` (event id and integrity hash from it).
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';

/** Event `i` at `time` (null: no time), on host WS01, a process creation, unless `over` says otherwise. */
export function testEvent(i: number, time: string | null, over: Partial<ExportedEvent> = {}): ExportedEvent {
  return {
    eventId: i.toString(16).padStart(16, '0'),
    integrityHash: i.toString(16).padStart(64, '0'),
    time: { time, precision: 'second', source: 't' },
    host: 'WS01',
    actor: null,
    action: 'process-create',
    object: null,
    summary: `event ${i}`,
    kind: 'evtx',
    loader: 'evtx/1',
    reliability: 'B',
    attributes: {},
    ...over,
  };
}
