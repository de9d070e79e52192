// The Packages workspace (shell of the package scanning service): sign in, who am I, users, policies with a live-validated YAML editor, exceptions, events, audit chain.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Me, TokenResponse } from '../../../../engines/core/contracts/pkgscan';
import type { ApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import type { WorkspaceProps } from '../registry';
import { AuditTab, EventsTab, ExceptionsTab, PoliciesTab, UsersTab } from './tabs';
import { asApiError, can, login, logout, pkgscanApi, resume } from './session';
import './packages.css';

type Tab = 'me' | 'users' | 'policies' | 'exceptions' | 'events' | 'audit';

export default function PackagesWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [token, setToken] = useState<string | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const [tab, setTab] = useState<Tab>('me');
  const [checking, setChecking] = useState(true);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const tokenRef = useRef<string | null>(null);

  const signedOut = useCallback(() => {
    tokenRef.current = null;
    setToken(null);
    setMe(null);
  }, []);
  const signedIn = useCallback((t: TokenResponse) => {
    tokenRef.current = t.access_token;
    setToken(t.access_token);
  }, []);
  const api = useMemo(() => pkgscanApi(client, base, () => tokenRef.current, signedIn, signedOut), [client, base, signedIn, signedOut]);

  useEffect(() => {
    let live = true;
    void resume(client, base).then((t) => {
      if (!live) return;
      if (t) signedIn(t);
      setChecking(false);
    });
    return () => {
      live = false;
    };
  }, [client, base, signedIn]);

  useEffect(() => {
    if (token === null) return;
    api.get<Me>('/auth/me').then(setMe, (err: unknown) => setError(asApiError(err)));
  }, [api, token]);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setError(null);
    try {
      signedIn(await login(client, base, email.trim(), password));
      setPassword('');
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const signOut = async (): Promise<void> => {
    await logout(client, base);
    signedOut();
    setTab('me');
  };

  const tabs: { id: Tab; label: string; shown: boolean }[] = [
    { id: 'me', label: 'Account', shown: true },
    { id: 'users', label: 'Users', shown: can(me, 'user:manage') },
    { id: 'policies', label: 'Policies', shown: can(me, 'policy:read') },
    { id: 'exceptions', label: 'Exceptions', shown: can(me, 'policy:read') },
    { id: 'events', label: 'Events', shown: can(me, 'event:read') },
    { id: 'audit', label: 'Audit', shown: can(me, 'audit:read') },
  ];

  return (
    <div className="ws-page packages" data-testid="packages-workspace">
      <WorkspaceHeader title="Packages" purpose="Admit packages, projects and images: identity, policies, exceptions, events and the audit chain">
        {me && (
          <>
            <span className="packages__who" data-testid="whoami">
              {me.email} <span className="packages__role">{me.role}</span>
            </span>
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </>
        )}
      </WorkspaceHeader>
      {error && <ErrorNote error={error} title={error.status === 401 ? 'Sign-in failed' : 'The service reported an error'} />}
      {!token && !checking && (
        <form className="panel packages__login" data-testid="pkgscan-login" onSubmit={(e) => void submit(e)} aria-label="Sign in to package scanning">
          <h3>Sign in</h3>
          <p className="muted small">
            Package scanning has its own users. The first admin is created on this workstation with <code>pkgscan create-admin --email ADDRESS</code>.
          </p>
          <label>
            E-mail
            <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} />
          </label>
          <label>
            Password
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required maxLength={1024} />
          </label>
          <button type="submit" className="primary">
            Sign in
          </button>
        </form>
      )}
      {token && me && (
        <>
          <nav className="packages__tabs" role="tablist" aria-label="Package scanning sections">
            {tabs
              .filter((t) => t.shown)
              .map((t) => (
                <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} className={tab === t.id ? 'packages__tab packages__tab--active' : 'packages__tab'} onClick={() => setTab(t.id)}>
                  {t.label}
                </button>
              ))}
          </nav>
          <section className="packages__body">
            {tab === 'me' && (
              <div className="panel">
                <h3>Signed in</h3>
                <dl className="packages__facts">
                  <dt>E-mail</dt>
                  <dd>{me.email}</dd>
                  <dt>Role</dt>
                  <dd>{me.role}</dd>
                  <dt>User id</dt>
                  <dd className="selectable">{me.id}</dd>
                  <dt>Permissions</dt>
                  <dd>
                    {me.permissions.map((p) => (
                      <code key={p} className="packages__perm">
                        {p}
                      </code>
                    ))}
                  </dd>
                </dl>
              </div>
            )}
            {tab === 'users' && <UsersTab api={api} me={me} />}
            {tab === 'policies' && <PoliciesTab api={api} me={me} />}
            {tab === 'exceptions' && <ExceptionsTab api={api} me={me} />}
            {tab === 'events' && <EventsTab api={api} me={me} />}
            {tab === 'audit' && <AuditTab api={api} />}
          </section>
        </>
      )}
    </div>
  );
}
