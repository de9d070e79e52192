// Tests for the in-memory custody ledger: chaining with engines/core's recipe, validation, copies, JSON export round trip and tampering.
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { GENESIS_HASH, ledgerHash, verifyChain } from '../core/ledger.js';
import { CustodyLedger, exportCustody, rowsFromExport } from './custody.js';
import { finalizeEvent } from './event.js';
import { refusal } from '../core/errors.fixture.js';

const fixedClock = (): Date => new Date('2024-05-01T10:00:00.000Z');

function event(n: number) {
  return finalizeEvent({
    actor: { type: 'user', name: 'alice' },
    action: 'auth.login.success',
    object: { type: 'host', name: 'web01' },
    time: { time: `2024-05-01T10:00:0${n}Z`, precision: 'second', source: 'test' },
    host: 'web01',
    summary: `login ${n}`,
    attributes: {},
    reliability: 'C',
    loader: 'authlog/1',
    kind: 'authlog',
    raw: { artifactSha256: 'a'.repeat(64), recordNumber: n, rawSha256: sha256Hex(String(n)) },
  });
}

function filled(n: number): CustodyLedger {
  const ledger = new CustodyLedger({ now: fixedClock });
  ledger.append({ action: 'artifact.acquire', digest: 'a'.repeat(64), artifact: 'logs/auth.log' });
  for (let i = 1; i < n; i++) ledger.recordIngest(event(i));
  return ledger;
}

describe('CustodyLedger', () => {
  it('chains records from the genesis hash with the core ledger recipe and the spec field names', () => {
    const ledger = new CustodyLedger({ now: fixedClock });
    const first = ledger.append({ action: 'case.open', digest: 'b'.repeat(64), artifact: 'case-1' });
    expect(first).toEqual({
      seq: 1,
      action: 'case.open',
      digest: 'b'.repeat(64),
      artifact: 'case-1',
      time: '2024-05-01T10:00:00.000Z',
      actor: 'forensic',
      prevHash: GENESIS_HASH,
      hash: ledgerHash({ seq: 1, at: '2024-05-01T10:00:00.000Z', kind: 'case.open', actor: 'forensic', payload: { digest: 'b'.repeat(64), artifact: 'case-1' }, prev_hash: GENESIS_HASH }),
    });
    const e = event(1);
    const second = ledger.recordIngest(e);
    expect(second).toMatchObject({ seq: 2, action: 'ingest', digest: e.integrityHash, eventId: e.eventId, prevHash: first.hash });
    expect(second.artifact).toBeUndefined();
    const third = ledger.append({ action: 'note', digest: 'c'.repeat(64), time: '2023-01-01T00:00:00Z' });
    expect(third.time).toBe('2023-01-01T00:00:00Z');
    expect(ledger.head).toBe(third.hash);
    expect(ledger.count).toBe(3);
    expect(ledger.verify()).toBe(true);
    expect(ledger.storedRows()[1]?.payload).toBe(canonicalJson({ digest: e.integrityHash, event_id: e.eventId }));
  });

  it('defaults the time to now in UTC', () => {
    const before = Date.now();
    const r = new CustodyLedger().append({ action: 'x', digest: 'a'.repeat(64) });
    expect(r.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(r.time)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('refuses malformed entries without echoing them, and keeps the chain as it was', () => {
    const ledger = filled(2);
    const bad = [
      { action: 'Bad Action', digest: 'a'.repeat(64) },
      { action: 'ok', digest: 'SECRET'.repeat(10) },
      { action: 'ok', digest: 'A'.repeat(64) },
      { action: 'ok', digest: 'a'.repeat(64), eventId: 'SECRET' },
      { action: 'ok', digest: 'a'.repeat(64), artifact: '' },
      { action: 'ok', digest: 'a'.repeat(64), artifact: 'x'.repeat(1025) },
      { action: 'ok', digest: 'a'.repeat(64), time: '2024-05-01 10:00:00+02:00' },
    ];
    for (const entry of bad) expect(refusal(() => ledger.append(entry)).message).not.toContain('SECRET');
    expect(ledger.count).toBe(2);
    expect(ledger.verify()).toBe(true);
  });

  it('hands out copies of its records', () => {
    const ledger = filled(3);
    const copy = ledger.records();
    (copy as unknown as { digest: string }[])[0]!.digest = 'f'.repeat(64);
    copy.pop();
    expect(ledger.records()).toHaveLength(3);
    expect(ledger.records()[0]?.digest).toBe('a'.repeat(64));
    expect(ledger.verify()).toBe(true);
  });

  it('continues a loaded chain, and reports where a loaded chain breaks', () => {
    const ledger = filled(4);
    const rows = ledger.storedRows();
    const again = CustodyLedger.fromRows(rows);
    again.append({ action: 'artifact.ingested', digest: 'd'.repeat(64) });
    expect(again.verification()).toMatchObject({ ok: true, count: 5 });
    const broken = CustodyLedger.fromRows(rows.map((r) => (r.seq === 3 ? { ...r, payload: r.payload.replace(/"digest":"(.)/, (_m, c: string) => `"digest":"${c === '0' ? '1' : '0'}`) } : r)));
    expect(broken.verify()).toBe(false);
    expect(broken.verification()).toMatchObject({ ok: false, firstBroken: 3 });
  });
});

describe('JSON export', () => {
  it('round-trips to rows that verify to the same head', () => {
    const ledger = filled(5);
    const doc = JSON.parse(JSON.stringify(exportCustody(ledger))) as unknown;
    const result = verifyChain(rowsFromExport(doc), { head: ledger.head, count: 5 });
    expect(result).toEqual({ ok: true, count: 5, head: ledger.head });
  });

  it('catches one changed digest character, a reordering, a removed record and a truncated tail', () => {
    const ledger = filled(6);
    const records = ledger.records();
    const flip = (s: string): string => (s[10] === '0' ? `${s.slice(0, 10)}1${s.slice(11)}` : `${s.slice(0, 10)}0${s.slice(11)}`);
    const edited = records.map((r) => (r.seq === 4 ? { ...r, digest: flip(r.digest) } : r));
    expect(verifyChain(rowsFromExport(edited))).toMatchObject({ ok: false, firstBroken: 4 });
    const swapped = [...records];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    expect(verifyChain(rowsFromExport(swapped))).toMatchObject({ ok: false, firstBroken: 3 });
    expect(verifyChain(rowsFromExport(records.filter((r) => r.seq !== 2)))).toMatchObject({ ok: false, firstBroken: 2 });
    const truncated = records.slice(0, 5);
    expect(verifyChain(rowsFromExport(truncated)).ok).toBe(true);
    expect(verifyChain(rowsFromExport(truncated), { count: 6 })).toMatchObject({ ok: false, firstBroken: 6 });
    expect(verifyChain(rowsFromExport(truncated), { head: ledger.head }).ok).toBe(false);
    expect(() => rowsFromExport({ nothing: true })).toThrow(VitrineError);
  });
});
