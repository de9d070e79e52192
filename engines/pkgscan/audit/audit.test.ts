// The audit chain: entries carry action, seq, chain hash, actor, request id, time; tampering is found at its sequence number.
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { openMemoryStore } from '../../core/store.js';
import { pkgscanService } from '../service.js';
import { AUDIT_TABLE } from '../store.js';
import { AuditLog } from './audit.js';

function filled(n = 5) {
  const db = openMemoryStore([pkgscanService]);
  const audit = new AuditLog(db);
  for (let i = 0; i < n; i++) audit.record(i % 2 === 0 ? 'policy.update' : 'auth.login', `user-${i}`, `req-0000000${i}`, { n: i });
  return { db, audit };
}

/** Rewrites one row behind the triggers' back, as an attacker with file access could. */
function tamper(db: ReturnType<typeof filled>['db'], sql: string, ...args: unknown[]): void {
  db.exec(`DROP TRIGGER ${AUDIT_TABLE}_no_update; DROP TRIGGER ${AUDIT_TABLE}_no_delete; DROP TRIGGER ${AUDIT_TABLE}_append_only;`);
  db.prepare(sql).run(...args);
}

const fixture = backendFixture();

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`audit chain on ${backend.title}`, () => {
    it('records every field and lists newest first with filters; the queued and the direct appends are one chain', async () => {
      const b = await fixture.open(backend.name);
      const audit = new AuditLog(b.sqlite, b.store);
      for (let i = 0; i < 5; i++) {
        const details = { n: i };
        // The synchronous append (queued on PostgreSQL) and the async one, alternately.
        if (i % 2 === 0) audit.record('policy.update', `user-${i}`, `req-0000000${i}`, details);
        else await audit.append('auth.login', `user-${i}`, `req-0000000${i}`, details);
      }
      const page = await audit.page({}, 10, 0);
      expect(page.total).toBe(5);
      expect(page.items[0]).toMatchObject({ seq: 5, action: 'policy.update', actor: 'user-4', request_id: 'req-00000004', details: { n: 4 } });
      expect(page.items[0]?.chain_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(page.items[0]?.prev_hash).toBe(page.items[1]?.chain_hash);
      expect((await audit.page({ action: 'auth.login' }, 10, 0)).total).toBe(2);
      expect((await audit.page({ actionPrefix: 'policy.' }, 10, 0)).total).toBe(3);
      expect((await audit.page({ actor: 'user-1' }, 10, 0)).items.map((e) => e.seq)).toEqual([2]);
      expect(await audit.verifyChain()).toMatchObject({ ok: true, count: 5, first_broken_seq: null, missing_triggers: [] });
      expect(await audit.total()).toBe(5);
      expect((await audit.verifyChain()).head_hash).toBe(page.items[0]?.chain_hash);
    });
  });
}

describe('audit chain on sqlite, tampered behind its triggers', () => {
  it('the triggers refuse UPDATE and DELETE', () => {
    const { db } = filled();
    expect(() => db.prepare(`UPDATE ${AUDIT_TABLE} SET actor = 'x' WHERE seq = 2`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM ${AUDIT_TABLE} WHERE seq = 5`).run()).toThrow(/append-only/);
  });

  it('a rewritten payload breaks the chain at its sequence number', async () => {
    const { db, audit } = filled();
    tamper(db, `UPDATE ${AUDIT_TABLE} SET payload = ? WHERE seq = 3`, '{"n":99,"request_id":"req-00000002"}');
    expect(await audit.verifyChain()).toMatchObject({ ok: false, first_broken_seq: 3 });
  });

  it('a rewritten actor, or a deleted middle entry, is found', async () => {
    const a = filled();
    tamper(a.db, `UPDATE ${AUDIT_TABLE} SET actor = 'someone-else' WHERE seq = 4`);
    expect(await a.audit.verifyChain()).toMatchObject({ ok: false, first_broken_seq: 4 });
    const b = filled();
    tamper(b.db, `DELETE FROM ${AUDIT_TABLE} WHERE seq = 2`);
    expect(await b.audit.verifyChain()).toMatchObject({ ok: false, first_broken_seq: 2 });
  });

  it('head hash is the last entry’s chain hash', async () => {
    const { audit } = filled(3);
    expect((await audit.verifyChain()).head_hash).toBe((await audit.page({}, 1, 0)).items[0]?.chain_hash);
  });

  it('newest entries deleted behind dropped triggers fail: the triggers are checked, and anchors catch the truncation', async () => {
    const { db, audit } = filled(5);
    const before = await audit.verifyChain();
    tamper(db, `DELETE FROM ${AUDIT_TABLE} WHERE seq >= 4`);
    const after = await audit.verifyChain();
    expect(after).toMatchObject({ ok: false, count: 3, reason: 'append-only triggers are missing or altered' });
    expect(after.missing_triggers).toHaveLength(3);
    // Even with the triggers put back, the anchors recorded elsewhere fail the shortened chain.
    const fresh = filled(3);
    expect(await fresh.audit.verifyChain({ count: 5 })).toMatchObject({ ok: false, reason: 'record count differs from the expected count' });
    expect(await fresh.audit.verifyChain({ head: before.head_hash })).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
    expect((await audit.verifyChain({ count: 5, head: before.head_hash })).ok).toBe(false);
  });

  it('a disarmed trigger (same name, other SQL) counts as missing', async () => {
    const { db, audit } = filled(2);
    db.exec(`DROP TRIGGER ${AUDIT_TABLE}_no_delete; CREATE TRIGGER ${AUDIT_TABLE}_no_delete BEFORE DELETE ON ${AUDIT_TABLE} WHEN 0 BEGIN SELECT 1; END;`);
    expect(await audit.verifyChain()).toMatchObject({ ok: false, missing_triggers: [`${AUDIT_TABLE}_no_delete`] });
  });
});
