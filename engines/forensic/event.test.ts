// Tests for the Event model: the integrity hash recipe (pinned), ids derived from it, supplied ids discarded, tampering caught.
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import {
  LOADER_RELIABILITY,
  RELIABILITY_GRADES,
  RELIABILITY_WEIGHTS,
  ARTIFACT_KINDS,
  canonicalEvent,
  finalizeEvent,
  hashEvent,
  stableEventId,
  verifyEvent,
  type EventDraft,
  type ForensicEvent,
} from './event.js';

const rawLine = Buffer.from('Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186');

function draft(overrides: Partial<EventDraft> = {}): EventDraft {
  return {
    actor: { type: 'user', name: 'webmaster' },
    action: 'auth.invalid_user',
    object: { type: 'host', name: 'LabSZ' },
    time: { time: '2005-12-10T06:55:46Z', precision: 'second', source: 'syslog header; year 2005 from the year option; UTC+0 assumed' },
    host: 'LabSZ',
    summary: 'sshd[24200]: Invalid user webmaster from 173.234.31.186',
    attributes: { program: 'sshd', pid: 24200, sourceIp: '173.234.31.186' },
    reliability: 'C',
    loader: 'authlog/1',
    kind: 'authlog',
    raw: { artifactSha256: 'a'.repeat(64), recordNumber: 2, offset: 152, length: rawLine.length, rawSha256: sha256Hex(rawLine) },
    ...overrides,
  };
}

describe('hashEvent and stableEventId', () => {
  it('hash the canonical form, which binds the raw record and leaves ids out', () => {
    const d = draft();
    const expected = sha256Hex(
      canonicalJson({ v: 1, actor: d.actor, action: d.action, object: d.object, time: d.time, host: d.host, summary: d.summary, attributes: d.attributes, reliability: d.reliability, loader: d.loader, kind: d.kind, raw: d.raw }),
    );
    expect(hashEvent(d)).toBe(expected);
    expect(canonicalEvent(d)).toContain(`"rawSha256":"${sha256Hex(rawLine)}"`);
    expect(stableEventId(d)).toBe(expected.slice(0, 16));
    // Pinned: a change of recipe would silently orphan every stored hash and custody record.
    const small = draft({ attributes: {}, summary: '', time: { time: '2005-12-10T06:55:46Z', precision: 'second', source: 's' } });
    expect(hashEvent(small)).toBe(
      sha256Hex(
        '{"action":"auth.invalid_user","actor":{"name":"webmaster","type":"user"},"attributes":{},"host":"LabSZ","kind":"authlog","loader":"authlog/1","object":{"name":"LabSZ","type":"host"},"raw":{"artifactSha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","length":77,"offset":152,"rawSha256":"01de546dd53ffa8fc7971816de3b5d24d6fff93873d233c40e811d18ea4b41b4","recordNumber":2},"reliability":"C","summary":"","time":{"precision":"second","source":"s","time":"2005-12-10T06:55:46Z"},"v":1}',
      ),
    );
    expect(stableEventId(small)).toBe('8c06b8e2e48a22bc');
  });

  it('do not depend on key order, and change with any field, the raw bytes and the record position', () => {
    const d = draft();
    const reordered = { raw: d.raw, kind: d.kind, loader: d.loader, reliability: d.reliability, attributes: { sourceIp: '173.234.31.186', pid: 24200, program: 'sshd' }, summary: d.summary, host: d.host, time: d.time, object: d.object, action: d.action, actor: d.actor };
    expect(hashEvent(reordered)).toBe(hashEvent(d));
    const variants: EventDraft[] = [
      draft({ action: 'auth.login.failure' }),
      draft({ actor: { type: 'user', name: 'root' } }),
      draft({ object: null }),
      draft({ time: { ...d.time, time: '2005-12-10T06:55:47Z' } }),
      draft({ time: { ...d.time, source: 'other' } }),
      draft({ host: null }),
      draft({ summary: 'x' }),
      draft({ attributes: { ...d.attributes, pid: 1 } }),
      draft({ reliability: 'B' }),
      draft({ raw: { ...d.raw, rawSha256: sha256Hex(Buffer.concat([rawLine, Buffer.from(' ')])) } }),
      draft({ raw: { ...d.raw, recordNumber: 3 } }),
      draft({ raw: { ...d.raw, artifactSha256: 'b'.repeat(64) } }),
    ];
    const hashes = new Set([hashEvent(d), ...variants.map(hashEvent)]);
    expect(hashes.size).toBe(variants.length + 1);
  });

  it('refuse an event without the SHA-256 of its raw record', () => {
    expect(() => hashEvent(draft({ raw: { ...draft().raw, rawSha256: 'nope' } }))).toThrow(VitrineError);
    // The artefact hash is checked again whenever it changes from the last good one (the empty string included).
    hashEvent(draft());
    for (const artifactSha256 of ['', 'A'.repeat(64), 'a'.repeat(63)]) expect(() => hashEvent(draft({ raw: { ...draft().raw, artifactSha256 } }))).toThrow(VitrineError);
    expect(() => hashEvent(draft({ attributes: { n: Number.NaN } }))).toThrow(VitrineError);
    // The record's hash is read as the text is written: upper-case, short or non-hex ones are refused in every shape of
    // raw reference, and a missing hash is what is reported when a value JSON cannot carry is there too.
    const hex = sha256Hex(rawLine);
    for (const rawSha256 of [hex.toUpperCase(), hex.slice(1), `${hex}0`, `${hex.slice(0, 63)}g`, null, 5]) {
      for (const raw of [{ ...draft().raw, rawSha256 }, { ...draft().raw, member: 'm', rawSha256 }, { artifactSha256: 'a'.repeat(64), recordNumber: 1, rawSha256 }])
        expect(() => hashEvent(draft({ raw: raw as EventDraft['raw'] }))).toThrow(/SHA-256 of its raw record/);
      expect(() => hashEvent(draft({ raw: { ...draft().raw, rawSha256 } as EventDraft['raw'], attributes: { n: Number.NaN } }))).toThrow(/SHA-256 of its raw record/);
    }
    expect(() => hashEvent(draft({ attributes: { n: Number.NaN } }))).toThrow(/JSON cannot carry/);
    expect(hashEvent(draft({ raw: { ...draft().raw, member: 'm' } }))).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('finalizeEvent and verifyEvent', () => {
  it('computes the hash and id here and discards any the input carried', () => {
    const supplied = { ...draft(), eventId: 'deadbeefdeadbeef', integrityHash: 'f'.repeat(64) } as ForensicEvent;
    const e = finalizeEvent(supplied);
    expect(e.integrityHash).toBe(hashEvent(draft()));
    expect(e.eventId).toBe(e.integrityHash.slice(0, 16));
    expect(e.eventId).not.toBe('deadbeefdeadbeef');
    expect(Object.isFrozen(e)).toBe(true);
    expect(Object.isFrozen(e.attributes)).toBe(true);
    expect(verifyEvent(e)).toBe(true);
    expect(verifyEvent(e, rawLine)).toBe(true);
  });

  it('catches an edited field, a wrong id, a forged hash and the wrong raw bytes', () => {
    const e = finalizeEvent(draft());
    expect(verifyEvent({ ...e, action: 'auth.login.success' })).toBe(false);
    expect(verifyEvent({ ...e, attributes: { ...e.attributes, sourceIp: '10.0.0.1' } })).toBe(false);
    expect(verifyEvent({ ...e, eventId: '0123456789abcdef' })).toBe(false);
    expect(verifyEvent({ ...e, integrityHash: 'f'.repeat(64) })).toBe(false);
    expect(verifyEvent(e, Buffer.from('Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user admin from 173.234.31.186'))).toBe(false);
    expect(verifyEvent({ ...e, raw: { ...e.raw, rawSha256: 'x' } })).toBe(false);
  });
});

describe('reliability grades', () => {
  it('give every loader one grade, each grade a weight, decreasing from A to F', () => {
    for (const kind of ARTIFACT_KINDS) expect(RELIABILITY_GRADES).toContain(LOADER_RELIABILITY[kind]);
    const weights = RELIABILITY_GRADES.map((g) => RELIABILITY_WEIGHTS[g]);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
    expect(new Set(weights).size).toBe(weights.length);
  });
});
