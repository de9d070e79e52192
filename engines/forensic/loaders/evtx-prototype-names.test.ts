// EVTX EventData whose Data Names are Object.prototype members (`__proto__`, `constructor`, `toString`): each keeps its
// value as an own key of the event's data, in the stored event and in its JSON, through the real loader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalEvent, verifyEvent } from '../event.js';
import { ingestArtifact } from '../ingest.js';
import { eventOpen, evtx, le, record, utf16, type Body } from '../evtx/binxml-writer.fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'CommandLine'];

function load(bytes: Uint8Array): ReturnType<typeof ingestArtifact> {
  const dir = mkdtempSync(path.join(tmpdir(), 'evtx-proto-'));
  dirs.push(dir);
  const file = path.join(dir, 'odd.evtx');
  writeFileSync(file, bytes);
  return ingestArtifact(file, { evidenceRoot: dir });
}

/** A record with System (provider, event id, channel) and EventData whose names are `names`, values from substitutions. */
function oddRecord(names: readonly string[], values: readonly string[]): Body {
  const body: Body = (w) => {
    eventOpen(w).open('System').closeStart();
    w.open('Provider', true).attr('Name').text('Microsoft-Windows-Sysmon').closeEmpty();
    w.leaf('EventID', 0, 0x06).leaf('Channel', 1, 0x01);
    w.end();
    w.open('EventData').closeStart();
    names.forEach((n, i) => w.data(n, i + 2, 0x01));
    w.end().end().eof();
  };
  return record(body, [
    [0x06, le(1n, 2)],
    [0x01, utf16('Microsoft-Windows-Sysmon/Operational')],
    ...values.map((v): [number, number[]] => [0x01, utf16(v)]),
  ]);
}

describe('EVTX Data named after Object.prototype members', () => {
  it('keeps every value as an own key of the stored data and of the event JSON, with the prototype untouched', () => {
    const values = NAMES.map((n) => `value of ${n}`);
    const { events } = load(evtx([oddRecord(NAMES, values), oddRecord(NAMES, values.map((v) => `${v} again`))]));
    expect(events).toHaveLength(2);
    events.forEach((event, i) => {
      const data = event.attributes['data'] as Record<string, unknown>;
      expect(Object.getPrototypeOf(data), 'data keeps the plain prototype').toBe(Object.prototype);
      const want = Object.fromEntries(NAMES.map((n, j) => [n, i === 0 ? values[j] : `${values[j]} again`]));
      expect(Object.keys(data)).toEqual(NAMES);
      for (const n of NAMES) expect(Object.getOwnPropertyDescriptor(data, n)?.value, n).toBe(want[n]);
      expect(verifyEvent(event)).toBe(true);
      for (const text of [JSON.stringify(event), canonicalEvent(event)]) {
        const json = JSON.parse(text) as { attributes: { data: Record<string, unknown> } };
        for (const n of NAMES) expect(Object.getOwnPropertyDescriptor(json.attributes.data, n)?.value, `JSON ${n}`).toBe(want[n]);
      }
    });
  });

  it('keeps UserData whose element is named __proto__ as the event data, not as a prototype', () => {
    const body: Body = (w) => {
      eventOpen(w).open('System').closeStart();
      w.open('Provider', true).attr('Name').text('Microsoft-Windows-Eventlog').closeEmpty();
      w.leaf('EventID', 0, 0x06).leaf('Channel', 1, 0x01);
      w.end();
      w.open('UserData').closeStart().open('__proto__').closeStart().leaf('SubjectUserName', 2, 0x01).end().end();
      w.end().eof();
    };
    const values: Array<[number, number[]]> = [
      [0x06, le(1102n, 2)],
      [0x01, utf16('Security')],
      [0x01, utf16('analyst')],
    ];
    const { events } = load(evtx([record(body, values), record(body, values)]));
    expect(events).toHaveLength(2);
    for (const event of events) {
      const data = event.attributes['data'] as Record<string, unknown>;
      expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
      expect(Object.keys(data)).toEqual(['SubjectUserName']);
      expect(data['SubjectUserName']).toBe('analyst');
      expect(JSON.parse(canonicalEvent(event))).toMatchObject({ attributes: { data: { SubjectUserName: 'analyst' } } });
    }
  });
});
