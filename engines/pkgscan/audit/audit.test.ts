// The audit chain: entries carry action, seq, chain hash, actor, request id, time; tampering is found at its sequence number.
import { describe, expect, it } from 'vitest';
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

describe('audit chain', () => {
  it('records every field and lists newest first with filters', () => {
    const { audit } = filled();
    const page = audit.list({}, 10, 0);
    expect(page.total).toBe(5);
    expect(page.items[0]).toMatchObject({ seq: 5, action: 'policy.update', actor: 'user-4', request_id: 'req-00000004', details: { n: 4 } });
    expect(page.items[0]?.chain_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(page.items[0]?.prev_hash).toBe(page.items[1]?.chain_hash);
    expect(audit.list({ action: 'auth.login' }, 10, 0).total).toBe(2);
    expect(audit.list({ actionPrefix: 'policy.' }, 10, 0).total).toBe(3);
    expect(audit.list({ actor: 'user-1' }, 10, 0).items.map((e) => e.seq)).toEqual([2]);
    expect(audit.verify()).toMatchObject({ ok: true, count: 5, first_broken_seq: null });
  });

  it('the triggers refuse UPDATE and DELETE', () => {
    const { db } = filled();
    expect(() => db.prepare(`UPDATE ${AUDIT_TABLE} SET actor = 'x' WHERE seq = 2`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM ${AUDIT_TABLE} WHERE seq = 5`).run()).toThrow(/append-only/);
  });

  it('a rewritten payload breaks the chain at its sequence number', () => {
    const { db, audit } = filled();
    tamper(db, `UPDATE ${AUDIT_TABLE} SET payload = ? WHERE seq = 3`, '{"n":99,"request_id":"req-00000002"}');
    expect(audit.verify()).toMatchObject({ ok: false, first_broken_seq: 3 });
  });

  it('a rewritten actor, or a deleted middle entry, is found', () => {
    const a = filled();
    tamper(a.db, `UPDATE ${AUDIT_TABLE} SET actor = 'someone-else' WHERE seq = 4`);
    expect(a.audit.verify()).toMatchObject({ ok: false, first_broken_seq: 4 });
    const b = filled();
    tamper(b.db, `DELETE FROM ${AUDIT_TABLE} WHERE seq = 2`);
    expect(b.audit.verify()).toMatchObject({ ok: false, first_broken_seq: 2 });
  });

  it('head hash is the last entry’s chain hash', () => {
    const { audit } = filled(3);
    expect(audit.verify().head_hash).toBe(audit.list({}, 1, 0).items[0]?.chain_hash);
  });

  it('newest entries deleted behind dropped triggers fail: the triggers are checked, and anchors catch the truncation', () => {
    const { db, audit } = filled(5);
    const before = audit.verify();
    tamper(db, `DELETE FROM ${AUDIT_TABLE} WHERE seq >= 4`);
    const after = audit.verify();
    expect(after).toMatchObject({ ok: false, count: 3, reason: 'append-only triggers are missing or altered' });
    expect(after.missing_triggers).toHaveLength(3);
    // Even with the triggers put back, the anchors recorded elsewhere fail the shortened chain.
    const fresh = filled(3);
    expect(fresh.audit.verify({ count: 5 })).toMatchObject({ ok: false, reason: 'record count differs from the expected count' });
    expect(fresh.audit.verify({ head: before.head_hash })).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
    expect(audit.verify({ count: 5, head: before.head_hash }).ok).toBe(false);
  });

  it('a disarmed trigger (same name, other SQL) counts as missing', () => {
    const { db, audit } = filled(2);
    db.exec(`DROP TRIGGER ${AUDIT_TABLE}_no_delete; CREATE TRIGGER ${AUDIT_TABLE}_no_delete BEFORE DELETE ON ${AUDIT_TABLE} WHEN 0 BEGIN SELECT 1; END;`);
    expect(audit.verify()).toMatchObject({ ok: false, missing_triggers: [`${AUDIT_TABLE}_no_delete`] });
  });
});
