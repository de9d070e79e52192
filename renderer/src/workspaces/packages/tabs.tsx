// The sections of the Packages workspace: users, policies (YAML editor with live validation), exceptions queue, events, audit chain.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { stringify } from 'yaml';
import type {
  AuditEntry,
  AuditVerification,
  Me,
  PageOf,
  Policy,
  PolicyException,
  PolicyValidation,
  Role,
  SecurityEvent,
  User,
} from '../../../../engines/core/contracts/pkgscan';
import type { ApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { asApiError, can, errorLines, shortId, type PkgscanApi } from './session';

const ROLE_NAMES: readonly Role[] = ['admin', 'security_analyst', 'developer', 'auditor', 'read_only'];
const PAGE = 50;

function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): { data: T | null; error: ApiError | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (live) {
          setData(d);
          setError(null);
        }
      },
      (err: unknown) => {
        if (live) setError(asApiError(err));
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  return { data, error, reload: () => setN((x) => x + 1) };
}

/** A write the user started: clears the last error, runs, keeps the service's refusal to show. */
function useAction(): { error: ApiError | null; run: (fn: () => Promise<void>) => Promise<void> } {
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async (fn: () => Promise<void>): Promise<void> => {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(asApiError(err));
    }
  }, []);
  return { error, run };
}

function when(iso: string | null): string {
  return iso === null ? '' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

// ---------------------------------------------------------------- users

export function UsersTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const [role, setRole] = useState('');
  const [active, setActive] = useState('');
  const [email, setEmail] = useState('');
  const action = useAction();
  const users = useLoad(
    () => api.get<PageOf<User>>('/users', { role: role || undefined, active: active || undefined, email: email.trim() || undefined, limit: PAGE }),
    [api, role, active, email],
  );
  const [newEmail, setNewEmail] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [newRole, setNewRole] = useState<Role>('read_only');

  const patch = async (id: string, body: { role?: Role; active?: boolean }): Promise<void> => {
    await action.run(async () => {
      await api.patch(`/users/${id}`, body);
      users.reload();
    });
  };
  const register = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    await action.run(async () => {
      await api.post('/auth/register', { email: newEmail.trim(), password: newPassword, role: newRole });
      setNewEmail('');
      setNewPassword('');
      users.reload();
    });
  };

  return (
    <div className="packages__cols">
      <div className="panel">
        <div className="packages__filters">
          <h3>Users</h3>
          <select aria-label="Filter by role" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">any role</option>
            {ROLE_NAMES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <select aria-label="Filter by active flag" value={active} onChange={(e) => setActive(e.target.value)}>
            <option value="">active or not</option>
            <option value="true">active</option>
            <option value="false">deactivated</option>
          </select>
          <input aria-label="E-mail contains" placeholder="e-mail contains" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} />
        </div>
        {users.error && <ErrorNote error={users.error} />}
        {action.error && <ErrorNote error={action.error} title="The change was refused" />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Role</th>
              <th>Active</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {(users.data?.items ?? []).map((u) => (
              <tr key={u.id} data-testid="user-row">
                <td>
                  {u.email}
                  {u.id === me.id && <span className="muted"> (you)</span>}
                </td>
                <td>
                  <select aria-label={`Role of ${u.email}`} value={u.role} onChange={(e) => void patch(u.id, { role: e.target.value as Role })}>
                    {ROLE_NAMES.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <label>
                    <input type="checkbox" checked={u.active} onChange={(e) => void patch(u.id, { active: e.target.checked })} /> {u.active ? 'active' : 'deactivated'}
                  </label>
                </td>
                <td className="muted">{when(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="muted small">{users.data ? `${users.data.total} user(s)` : ''}</div>
      </div>
      <form className="panel packages__form" onSubmit={(e) => void register(e)} aria-label="Register a user">
        <h3>Register a user</h3>
        <label>
          E-mail
          <input type="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} required maxLength={254} />
        </label>
        <label>
          Password (at least 12 characters)
          <input type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} required minLength={12} maxLength={1024} />
        </label>
        <label>
          Role
          <select value={newRole} onChange={(e) => setNewRole(e.target.value as Role)}>
            {ROLE_NAMES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Register
        </button>
      </form>
    </div>
  );
}

// ---------------------------------------------------------------- policies

function policyText(p: Policy): string {
  return p.source ?? stringify(p.document);
}

export function PoliciesTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const policies = useLoad(() => api.get<PageOf<Policy>>('/policies', { limit: 500 }), [api]);
  const [selected, setSelected] = useState<Policy | null>(null);
  const [text, setText] = useState('');
  const [validation, setValidation] = useState<PolicyValidation | null>(null);
  const [validateError, setValidateError] = useState<ApiError | null>(null);
  const action = useAction();
  const [notice, setNotice] = useState('');
  const writable = can(me, 'policy:write');
  const gutter = useRef<HTMLPreElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  /** Puts the caret at the start of `line` and scrolls it into view (18 px a line, as the sheet sets). */
  const goToLine = (line: number): void => {
    const el = textarea.current;
    if (!el) return;
    const offset = text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    el.focus();
    el.setSelectionRange(offset, offset);
    el.scrollTop = Math.max(0, (line - 3) * 18);
  };

  useEffect(() => {
    const first = policies.data?.items.find((p) => p.active) ?? policies.data?.items[0];
    if (selected === null && first) {
      setSelected(first);
      setText(policyText(first));
    }
  }, [policies.data, selected]);

  // Live validation: the service parses the text (debounced), so the editor shows exactly what saving would say.
  useEffect(() => {
    if (text === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.post<PolicyValidation>('/policies/validate', { document: text }).then(
        (v) => {
          if (live) {
            setValidation(v);
            setValidateError(null);
          }
        },
        (err: unknown) => {
          if (live) setValidateError(asApiError(err));
        },
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, text]);

  const bad = errorLines(validation?.errors ?? []);
  const lines = text.split('\n').length;

  const act = async (what: 'save' | 'copy' | 'activate'): Promise<void> => {
    if (!selected) return;
    setNotice('');
    await action.run(async () => {
      let p: Policy;
      if (what === 'save') p = await api.put<Policy>(`/policies/${selected.id}`, { document: text });
      else if (what === 'copy') p = await api.post<Policy>('/policies', { name: `${selected.name}-copy`, environment: selected.environment, document: text });
      else p = await api.post<Policy>(`/policies/${selected.id}/activate`);
      setSelected(p);
      setNotice(what === 'save' ? `Saved revision ${p.revision}.` : what === 'copy' ? 'Stored as a new, inactive policy.' : `Active for ${p.environment}.`);
      policies.reload();
    });
  };

  return (
    <div className="packages__cols packages__cols--wide">
      <div className="panel">
        <h3>Policies</h3>
        {policies.error && <ErrorNote error={policies.error} />}
        <ul className="packages__list">
          {(policies.data?.items ?? []).map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={selected?.id === p.id ? 'packages__pick packages__pick--active' : 'packages__pick'}
                onClick={() => {
                  setSelected(p);
                  setText(policyText(p));
                  setNotice('');
                }}
              >
                <span>{p.name}</span> <span className="muted">{p.environment}</span> {p.active && <span className="packages__badge">active</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="panel">
        <div className="packages__filters">
          <h3>{selected ? `${selected.name} (${selected.environment}, revision ${selected.revision})` : 'Policy'}</h3>
          {writable && selected && (
            <>
              <button type="button" disabled={!validation?.valid} onClick={() => void act('save')}>
                Save
              </button>
              <button type="button" disabled={!validation?.valid} onClick={() => void act('copy')}>
                Save as new
              </button>
              <button type="button" className="primary" disabled={selected.active} onClick={() => void act('activate')}>
                Activate
              </button>
            </>
          )}
        </div>
        <div className="packages__editor">
          <pre className="packages__gutter" ref={gutter} aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => (
              <span key={i} className={bad.has(i + 1) ? 'packages__line packages__line--bad' : 'packages__line'}>
                {i + 1}
              </span>
            ))}
          </pre>
          <textarea
            ref={textarea}
            aria-label="Policy document (YAML)"
            spellCheck={false}
            value={text}
            readOnly={!writable}
            onChange={(e) => setText(e.target.value)}
            onScroll={(e) => {
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
        <div className="packages__validation" data-testid="policy-validation" aria-live="polite">
          {validation === null ? (
            <span className="muted">validating…</span>
          ) : validation.valid ? (
            <span className="pos">valid · hash {validation.hash?.slice(0, 16)}</span>
          ) : (
            <ul>
              {validation.errors.map((e, i) => (
                <li key={i} className="neg" data-testid="policy-error">
                  {e.line !== undefined && (
                    <button type="button" className="packages__goto" onClick={() => goToLine(e.line ?? 1)}>
                      line {e.line}, column {e.col ?? 0}
                    </button>
                  )}{' '}
                  <code className="field-path">{e.path || '(document)'}</code> {e.issue}
                </li>
              ))}
            </ul>
          )}
        </div>
        {validateError && <ErrorNote error={validateError} title="The document could not be validated" />}
        {notice && <div className="pos small">{notice}</div>}
        {action.error && <ErrorNote error={action.error} />}
      </div>
    </div>
  );
}

// ---------------------------------------------------------------- exceptions

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
          <h3>Exceptions</h3>
          <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">any status</option>
            {['pending', 'approved', 'rejected', 'revoked', 'expired'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
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
          <h3>Request an exception</h3>
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

// ---------------------------------------------------------------- events

export function EventsTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const [type, setType] = useState('');
  const [severity, setSeverity] = useState('');
  const [ack, setAck] = useState('false');
  const action = useAction();
  const events = useLoad(
    () => api.get<PageOf<SecurityEvent>>('/events', { type: type.trim() || undefined, min_severity: severity || undefined, acknowledged: ack || undefined, limit: PAGE }),
    [api, type, severity, ack],
  );
  const acknowledge = async (id: string): Promise<void> => {
    await action.run(async () => {
      await api.post(`/events/${id}/ack`);
      events.reload();
    });
  };
  return (
    <div className="panel">
      <div className="packages__filters">
        <h3>Security events</h3>
        <input aria-label="Event type" placeholder="type, e.g. maintainer_changed" value={type} onChange={(e) => setType(e.target.value)} maxLength={64} />
        <select aria-label="Minimum severity" value={severity} onChange={(e) => setSeverity(e.target.value)}>
          <option value="">any severity</option>
          {['low', 'medium', 'high', 'critical'].map((s) => (
            <option key={s} value={s}>
              {s} or worse
            </option>
          ))}
        </select>
        <select aria-label="Acknowledgement" value={ack} onChange={(e) => setAck(e.target.value)}>
          <option value="false">not acknowledged</option>
          <option value="true">acknowledged</option>
          <option value="">all</option>
        </select>
      </div>
      {events.error && <ErrorNote error={events.error} />}
      {action.error && <ErrorNote error={action.error} />}
      <table className="packages__table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Type</th>
            <th>Severity</th>
            <th>Package</th>
            <th>Project</th>
            <th>Acknowledged</th>
          </tr>
        </thead>
        <tbody>
          {(events.data?.items ?? []).map((ev) => (
            <tr key={ev.id} data-testid="event-row">
              <td className="muted">{when(ev.time)}</td>
              <td>
                <code>{ev.type}</code>
              </td>
              <td>
                <span className={`packages__sev packages__sev--${ev.severity}`}>{ev.severity}</span>
              </td>
              <td>{ev.package ?? ''}</td>
              <td>{ev.project ?? ''}</td>
              <td>
                {ev.acknowledged ? (
                  <span className="muted">
                    by {shortId(ev.acknowledged_by ?? '')} at {when(ev.acknowledged_at)}
                  </span>
                ) : can(me, 'event:ack') ? (
                  <button type="button" onClick={() => void acknowledge(ev.id)}>
                    Acknowledge
                  </button>
                ) : (
                  <span className="muted">no</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.data?.items.length === 0 && <div className="empty">No events match.</div>}
    </div>
  );
}

// ---------------------------------------------------------------- audit

export function AuditTab({ api }: { api: PkgscanApi }) {
  const [action, setAction] = useState('');
  const [offset, setOffset] = useState(0);
  const entries = useLoad(() => api.get<PageOf<AuditEntry>>('/audit', { action_prefix: action.trim() || undefined, limit: PAGE, offset }), [api, action, offset]);
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
        <h3>Audit chain</h3>
        <input aria-label="Action starts with" placeholder="action, e.g. auth." value={action} onChange={(e) => { setAction(e.target.value); setOffset(0); }} maxLength={128} />
        <button type="button" className="primary" onClick={() => void verify()}>
          Verify chain
        </button>
      </div>
      {verifyError && <ErrorNote error={verifyError} />}
      {verification && (
        <div className={verification.ok ? 'packages__verify packages__verify--ok' : 'packages__verify packages__verify--bad'} data-testid="audit-verification">
          {verification.ok ? `Chain intact: ${verification.count} entries.` : `Chain broken at sequence ${verification.first_broken_seq ?? '?'} (${verification.reason ?? ''}).`} Head hash{' '}
          <code className="selectable" data-testid="audit-head">
            {verification.head_hash}
          </code>{' '}
          <span className="muted">(record it outside this workstation)</span>
        </div>
      )}
      {entries.error && <ErrorNote error={entries.error} />}
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
              <td className="muted">{when(e.at)}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{shortId(e.actor)}</td>
              <td className="muted">{e.request_id ?? ''}</td>
              <td>
                <code title={e.chain_hash}>{e.chain_hash.slice(0, 16)}…</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
