import { describe, expect, it } from 'vitest';
import { finalizeEvent, type ForensicEvent } from '../event.js';
import { EventList, EventTable, idHash, rowTimeMs } from './events.js';
import { parseTimeMs } from '../time.js';
import { makeEvent } from './events.fixture.js';
import { Random } from '../../core/ml/random.js';

/** An event whose time text is exactly `time` (makeEvent gives every event the precision 'second'). */
const timed = (time: string | null): ForensicEvent => makeEvent({ time, action: 'process.create', attributes: { n: 1 } });

describe('EventTable', () => {
  it('rebuilds every time text exactly, whether stored as numbers or kept as is', () => {
    const texts = [
      '2024-01-01T10:00:00Z',
      '2024-01-01T10:00:00.000Z',
      '2024-01-01T10:00:00.5Z',
      '2024-01-01T10:00:00.050Z',
      '2024-01-01T10:00:00.000001Z',
      '2024-01-01T10:00:00.1234567Z',
      '2024-01-01T10:00:00.000000009Z',
      '1969-12-31T23:59:59.999Z',
      '2024-02-30T10:00:00Z',
      '2024-01-01T10:00:00+02:00',
      '2024-01-01 10:00:00',
      'not a time',
      '',
      null,
    ];
    const t = new EventTable();
    for (const x of texts) t.add(timed(x));
    t.seal();
    expect(t.length).toBe(texts.length);
    expect(texts.map((_, r) => t.timeText(r))).toEqual(texts);
    expect(texts.map((_, r) => t.row(r).time.time)).toEqual(texts);
  });

  it('knows the milliseconds of the time text it last made: what parseTimeMs reads from that text, NaN for any other text', () => {
    const texts = [
      '2024-01-01T10:00:00Z',
      '2024-01-01T10:00:00.000Z',
      '2024-01-01T10:00:00.5Z',
      '2024-01-01T10:00:00.050Z',
      '2024-01-01T10:00:00.999Z',
      '2024-01-01T10:00:00.0009Z',
      '2024-01-01T10:00:00.1239999Z',
      '2024-01-01T10:00:00.999999999Z',
      '1970-01-01T00:00:00Z',
      '9999-12-31T23:59:59.9999Z',
      '1969-12-31T23:59:59.999Z',
      '2024-02-29T23:59:59.001Z',
    ];
    const random = new Random(5);
    const next = (n: number): number => Math.floor(random.next() * n);
    for (let i = 0; i < 500; i++) {
      const digits = next(10);
      const fraction = digits === 0 ? '' : `.${String(next(10 ** digits)).padStart(digits, '0')}`;
      texts.push(`${new Date(next(253_402_300_800) * 1000).toISOString().slice(0, 19)}${fraction}Z`);
    }
    const t = new EventTable();
    for (const x of texts) t.add(timed(x));
    t.seal();
    let known = 0;
    for (let r = 0; r < texts.length; r++) {
      const text = t.timeText(r) as string;
      const ms = rowTimeMs(text);
      // Outside 1970 to 9999 the table does not say (NaN); the reader then parses the text.
      if (!Number.isNaN(ms)) {
        known++;
        expect(ms).toBe(parseTimeMs(text));
      }
      expect(rowTimeMs(`${text} `)).toBeNaN();
    }
    expect(known).toBe(texts.length - 1);
  });

  it('rebuilds the time texts of many seconds, minutes, days and years as toISOString writes them, read in any order', () => {
    const random = new Random(3);
    const next = (n: number): number => Math.floor(random.next() * n);
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // Runs of neighbouring seconds (the cached minute) and jumps anywhere from 1970 to 9999.
      const ms = i % 3 === 0 ? next(253_402_300_799) * 1000 : Date.UTC(2024, 11, 31, 23, 58) + i * 7_001;
      const digits = next(10);
      const head = new Date(ms).toISOString().slice(0, 19);
      texts.push(digits === 0 ? `${head}Z` : `${head}.${String(next(10 ** digits)).padStart(digits, '0')}Z`);
    }
    const t = new EventTable();
    for (const x of texts) t.add(timed(x));
    t.seal();
    expect(texts.map((_, r) => t.timeText(r))).toEqual(texts);
    expect(texts.map((_, r) => t.timeText(texts.length - 1 - r)).reverse()).toEqual(texts);
  });

  it('gives back the fields the analysis reads, with the raw record number', () => {
    const e = makeEvent({ time: '2024-01-01T10:00:00.123Z', host: 'WEB', action: 'auth.login.success', actor: { type: 'user', name: 'root' }, object: { type: 'host', name: 'web' }, attributes: { service: 'sshd' }, kind: 'authlog', reliability: 'C' });
    const inMember = finalizeEvent({ ...e, raw: { ...e.raw, member: 'pslist.json', memberSha256: 'b'.repeat(64) } });
    const t = new EventTable();
    t.add(e);
    t.add(inMember);
    t.seal();
    const r = t.row(0);
    expect(r).toEqual({
      eventId: e.eventId,
      time: e.time,
      host: 'WEB',
      actor: e.actor,
      action: 'auth.login.success',
      object: e.object,
      attributes: e.attributes,
      reliability: 'C',
      kind: 'authlog',
      raw: { artifactSha256: e.raw.artifactSha256 },
      record: e.raw.recordNumber,
    });
    expect(r.attributes).toBe(e.attributes);
    expect(t.row(1).record).toBe(0);
    // Events of one artefact share one raw reference.
    expect(t.row(1).raw).toBe(r.raw);
  });
});

describe('EventList', () => {
  it('reads, filters and slices in its own order, over an array or a table', () => {
    const events = ['2024-01-01T10:00:03Z', '2024-01-01T10:00:01Z', '2024-01-01T10:00:02Z'].map(timed);
    const table = new EventTable();
    for (const e of events) table.add(e);
    table.seal();
    const order = Uint32Array.from([1, 2, 0]);
    for (const list of [EventList.of(events, order), EventList.of(table, order)]) {
      expect(list.length).toBe(3);
      expect([...list].map((e) => e.eventId)).toEqual([1, 2, 0].map((i) => (events[i] as ForensicEvent).eventId));
      expect(list.at(-1)?.eventId).toBe(events[0]?.eventId);
      expect(list.at(3)).toBeUndefined();
      expect(list.at(0.5)).toBeUndefined();
      expect(list.slice(1).map((e) => e.time.time)).toEqual(['2024-01-01T10:00:02Z', '2024-01-01T10:00:03Z']);
      const late = list.filter((e) => e.time.time !== '2024-01-01T10:00:01Z');
      expect(late.map((e) => e.eventId)).toEqual([events[2]?.eventId, events[0]?.eventId]);
      expect(late.some((e) => e.eventId === events[1]?.eventId)).toBe(false);
    }
    // The id hashes: kept by the table, worked out over an array; a filtered list keeps them.
    for (const list of [EventList.of(events, order), EventList.of(table, order), EventList.of(table, order).filterAt((k) => k !== 1), EventList.of(events, order).filter(() => true)])
      for (let k = 0; k < list.length; k++) expect(list.idHashAt(k)).toBe(idHash(list.idAt(k)));
    expect(idHash('a')).toBe(0xe40c292c);
    // Over an array, the events are the array's own objects.
    expect(EventList.of(events, order).at(0)).toBe(events[1]);
  });
});
