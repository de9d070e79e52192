// The Audit tab: the hash-chained audit entries, paged and filtered by action, and the chain verification with its head hash and count to copy and record elsewhere.
import { useCallback, useState } from 'react';
import type { AuditEntry, AuditVerification, PageOf, User } from '../../../../../engines/core/contracts/pkgscan';
import { type ApiError, asApiError } from '../../../api/client';
import { ErrorNote } from '../../../components/ErrorNote';
import { counted } from '../../../components/wording';
import { useLoad } from '../../../components/useLoad';
import { PAGE, when } from '../common/format';
import { CopyButton } from '../monitoring/CopyButton';
import { actorName, type PkgscanApi } from '../session';

export function AuditTab({ api }: { api: PkgscanApi }) {
  const [action, setAction] = useState('');
  const [offset, setOffset] = useState(0);
  const entries = useLoad(() => api.get<PageOf<AuditEntry>>('/audit', { action_prefix: action.trim() || undefined, limit: PAGE, offset }), [api, action, offset]);
  // Names for the actors: GET /users needs user:manage; without it (an auditor) the ids stay.
  const users = useLoad(() => api.get<PageOf<User>>('/users', { limit: 500 }), [api]);
  const emails = new Map((users.data?.items ?? []).map((u) => [u.id, u.email] as const));
  const [verification, setVerification] = useState<AuditVerification | null>(null);
  const [verifyError, setVerifyError] = useState<ApiError | null>(null);
  const verify = useCallback(async (): Promise<void> => {
    setVerifyError(null);
    try {
      setVerification(await api.get<AuditVerification>('/audit/verify'));
    } catch (err) {
      setVerifyError(asApiError(err));
    }
  }, [api]);
  const total = entries.data?.total ?? 0;
  return (
    <div className="panel">
      <div className="packages__filters">
        <h2>Audit chain</h2>
        <input aria-label="Action starts with" placeholder="action, e.g. auth." value={action} onChange={(e) => { setAction(e.target.value); setOffset(0); }} maxLength={128} />
        <button type="button" className="primary" onClick={() => void verify()}>
          Verify chain
        </button>
      </div>
      {verifyError && <ErrorNote error={verifyError} />}
      {verification && (
        <div className={verification.ok ? 'packages__verify packages__verify--ok' : 'packages__verify packages__verify--bad'} data-testid="audit-verification">
          {verification.ok ? `Chain intact: ${counted(verification.count, 'entry', 'entries')}.` : `Chain broken at sequence ${verification.first_broken_seq ?? '?'} (${verification.reason ?? ''}).`} Head hash{' '}
          <code className="selectable" data-testid="audit-head">
            {verification.head_hash}
          </code>
          <CopyButton value={verification.head_hash} what="the audit head hash" label="Copy hash" />
          <CopyButton value={`audit chain head ${verification.head_hash} count ${verification.count} at ${new Date().toISOString()}`} what="the audit head hash and entry count" label="Copy hash and count" />
          <div className="muted packages__verify-note">
            Record the head hash and count outside this workstation (a notebook, a ticket, another machine): a later verification can then show that the entries up to that head were not rewritten.
          </div>
        </div>
      )}
      {entries.error && <ErrorNote error={entries.error} />}
      <div className="packages__table-box">
        <table className="packages__table">
          <thead>
            <tr>
              <th>Seq</th>
              <th>Time</th>
              <th>Action</th>
              <th>Actor</th>
              <th>Request id</th>
              <th>Chain hash</th>
            </tr>
          </thead>
          <tbody>
            {(entries.data?.items ?? []).map((e) => (
              <tr key={e.seq} data-testid="audit-row">
                <td className="num">{e.seq}</td>
                <td className="muted when">{when(e.at)}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td title={e.actor}>{actorName(e.actor, emails)}</td>
                <td className="muted">{e.request_id ?? ''}</td>
                <td>
                  <code title={e.chain_hash}>{e.chain_hash.slice(0, 16)}…</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="packages__pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Newer
        </button>
        <span className="muted small">
          {total === 0 ? 'no entries' : `${offset + 1}–${Math.min(total, offset + PAGE)} of ${total}`}
        </span>
        <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
          Older
        </button>
      </div>
    </div>
  );
}
