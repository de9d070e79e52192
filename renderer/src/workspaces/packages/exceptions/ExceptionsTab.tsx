// The Exceptions tab: the queue filtered by status, approve/reject/revoke, and the request form.
import { useState, type FormEvent } from 'react';
import type { Me, PageOf, PolicyException } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { PAGE, when } from '../common/format';
import { can, type PkgscanApi } from '../session';
import { FilterSelect } from '../common/ui';

export function ExceptionsTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const [status, setStatus] = useState('pending');
  const list = useLoad(() => api.get<PageOf<PolicyException>>('/policies/exceptions', { status: status || undefined, limit: PAGE }), [api, status]);
  const action = useAction();
  const [form, setForm] = useState({ ecosystem: 'npm', package: '', version_range: '', scope: 'package', justification: '', days: '30' });
  const approver = can(me, 'exception:approve');

  const move = async (id: string, what: 'approve' | 'reject' | 'revoke'): Promise<void> => {
    await action.run(async () => {
      await api.post(`/policies/exceptions/${id}/${what}`);
      list.reload();
    });
  };
  const request = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const days = Math.min(365, Math.max(1, Number(form.days) || 30));
    await action.run(async () => {
      await api.post('/policies/exceptions', {
        ecosystem: form.ecosystem,
        package: form.package.trim(),
        ...(form.version_range.trim() ? { version_range: form.version_range.trim() } : {}),
        scope: form.scope.trim(),
        justification: form.justification.trim(),
        expires_at: new Date(Date.now() + days * 86_400_000).toISOString(),
      });
      setForm({ ...form, package: '', version_range: '', justification: '' });
      list.reload();
    });
  };

  return (
    <div className="packages__cols">
      <div className="panel">
        <div className="packages__filters">
          <h2>Exceptions</h2>
          <FilterSelect label="Filter by status" value={status} onChange={setStatus} any="any status" options={['pending', 'approved', 'rejected', 'revoked', 'expired']} />
        </div>
        {list.error && <ErrorNote error={list.error} />}
        {action.error && <ErrorNote error={action.error} title="The exception was not changed" />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>Package</th>
              <th>Range</th>
              <th>Scope</th>
              <th>Status</th>
              <th>Expires</th>
              <th>Justification</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((x) => (
              <tr key={x.id} data-testid="exception-row">
                <td>
                  {x.ecosystem}/{x.package}
                </td>
                <td>{x.version_range ?? 'any'}</td>
                <td>
                  <code>{x.scope}</code>
                </td>
                <td>
                  <span className={`packages__status packages__status--${x.status}`}>{x.status}</span>
                </td>
                <td className="muted">{when(x.expires_at)}</td>
                <td>{x.justification}</td>
                <td className="packages__actions">
                  {approver && x.status === 'pending' && (
                    <>
                      <button type="button" disabled={x.requested_by === me.id} title={x.requested_by === me.id ? 'You requested it: another user must approve' : undefined} onClick={() => void move(x.id, 'approve')}>
                        Approve
                      </button>
                      <button type="button" onClick={() => void move(x.id, 'reject')}>
                        Reject
                      </button>
                    </>
                  )}
                  {approver && (x.status === 'pending' || x.status === 'approved') && (
                    <button type="button" onClick={() => void move(x.id, 'revoke')}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <div className="empty">No exceptions with this status.</div>}
      </div>
      {can(me, 'exception:request') && (
        <form className="panel packages__form" onSubmit={(e) => void request(e)} aria-label="Request an exception">
          <h2>Request an exception</h2>
          <label>
            Ecosystem
            <select value={form.ecosystem} onChange={(e) => setForm({ ...form, ecosystem: e.target.value })}>
              {['npm', 'pypi', 'maven', 'go', 'cargo', 'nuget', 'rubygems'].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Package
            <input value={form.package} onChange={(e) => setForm({ ...form, package: e.target.value })} required maxLength={214} />
          </label>
          <label>
            Version range (optional; npm ranges, PEP 440 specifiers)
            <input value={form.version_range} onChange={(e) => setForm({ ...form, version_range: e.target.value })} maxLength={200} placeholder="^1.2.0 or >=2.0,<3" />
          </label>
          <label>
            Scope
            <input value={form.scope} onChange={(e) => setForm({ ...form, scope: e.target.value })} required placeholder="package, finding:CODE, vulnerability:ID" />
          </label>
          <label>
            Justification
            <textarea value={form.justification} onChange={(e) => setForm({ ...form, justification: e.target.value })} required minLength={10} maxLength={2000} />
          </label>
          <label>
            Days until it expires (1 to 365)
            <input type="number" min={1} max={365} value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} />
          </label>
          <button type="submit" className="primary">
            Request
          </button>
        </form>
      )}
    </div>
  );
}
