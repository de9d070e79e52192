// The Packages workspace (shell of the package scanning service): sign in, then package scans (scan, history, package page, store, vulnerabilities, projects, containers, release diffs, monitoring) and the platform (users, policies, exceptions, events, audit).
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Me, TokenResponse } from '../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../components/ErrorNote';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import type { WorkspaceProps } from '../registry';
import { AuditTab } from './audit/AuditTab';
import { usePackagesNav, type Tab } from './common/nav';
import { openInPackages } from './common/open';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { EventsTab } from './events/EventsTab';
import { ContainersTab } from './containers/ContainersTab';
import { DiffsTab } from './diffs/DiffsTab';
import { ExceptionsTab } from './exceptions/ExceptionsTab';
import { HistoryTab } from './history/HistoryTab';
import { MonitoringTab } from './monitoring/MonitoringTab';
import { PackageTab } from './package/PackageTab';
import { PoliciesTab } from './policies/PoliciesTab';
import { ProjectsTab } from './projects/ProjectsTab';
import { ScanTab } from './scan/ScanTab';
import { StoreTab } from './store/StoreTab';
import { UsersTab } from './users/UsersTab';
import { VulnsTab } from './vulns/VulnsTab';
import { type ApiError, asApiError } from '../../api/client';
import { can, login, logout, pkgscanApi, resume } from './session';
import './packages.css';

export default function PackagesWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [token, setToken] = useState<string | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const tab = usePackagesNav((st) => st.tab);
  const setTab = usePackagesNav((st) => st.setTab);
  const resetNav = usePackagesNav((st) => st.reset);
  const [checking, setChecking] = useState(true);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const tokenRef = useRef<string | null>(null);
  // An item asked for from elsewhere (search box, item link) goes to its tab through the nav store, signed in or not yet.
  useOpenRequest(
    service.name,
    useCallback((r: OpenRequest) => void openInPackages(r, usePackagesNav.getState()), []),
  );

  const signedOut = useCallback(() => {
    tokenRef.current = null;
    setToken(null);
    setMe(null);
    usePackagesNav.getState().reset();
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
    resetNav();
  };

  const tabs: { id: Tab; label: string; shown: boolean }[] = [
    { id: 'me', label: 'Account', shown: true },
    { id: 'scan', label: 'Scan', shown: can(me, 'scan:create') },
    { id: 'history', label: 'History', shown: can(me, 'scan:read') },
    { id: 'package', label: 'Package', shown: can(me, 'scan:read') },
    { id: 'store', label: 'Store', shown: can(me, 'scan:read') },
    { id: 'vulns', label: 'Vulnerabilities', shown: can(me, 'vuln:read') },
    { id: 'projects', label: 'Projects', shown: can(me, 'project:read') },
    { id: 'containers', label: 'Containers', shown: can(me, 'scan:read') || can(me, 'container:scan') },
    { id: 'diffs', label: 'Release diffs', shown: can(me, 'scan:read') },
    { id: 'monitoring', label: 'Monitoring', shown: can(me, 'monitor:read') },
    { id: 'users', label: 'Users', shown: can(me, 'user:manage') },
    { id: 'policies', label: 'Policies', shown: can(me, 'policy:read') },
    { id: 'exceptions', label: 'Exceptions', shown: can(me, 'policy:read') },
    { id: 'events', label: 'Events', shown: can(me, 'event:read') },
    { id: 'audit', label: 'Audit', shown: can(me, 'audit:read') },
  ];

  // A tab the user may not see (another user signed in here before) falls back to the account page.
  const current: Tab = tabs.some((t) => t.id === tab && t.shown) ? tab : 'me';

  /** ← and → move between the tabs (the tab list is one stop for Tab, as WAI-ARIA tabs are); Home and End go to the ends. */
  const moveTab = (key: string): void => {
    const shown = tabs.filter((t) => t.shown).map((t) => t.id);
    const i = shown.indexOf(current);
    const next = key === 'ArrowRight' ? shown[(i + 1) % shown.length] : key === 'ArrowLeft' ? shown[(i - 1 + shown.length) % shown.length] : key === 'Home' ? shown[0] : key === 'End' ? shown.at(-1) : undefined;
    if (next === undefined) return;
    setTab(next);
    document.getElementById(`pk-tab-${next}`)?.focus();
  };

  return (
    <div className="ws-page packages" data-testid="packages-workspace">
      <WorkspaceHeader title="Packages" purpose="Admit packages: scan releases offline, read verdicts, manage policies, exceptions, events and the audit chain">
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
          <nav className="packages__tabs" role="tablist" aria-label="Package scanning sections" onKeyDown={(e) => moveTab(e.key)}>
            {tabs
              .filter((t) => t.shown)
              .map((t) => (
                <button key={t.id} id={`pk-tab-${t.id}`} type="button" role="tab" aria-selected={current === t.id} tabIndex={current === t.id ? 0 : -1} className={current === t.id ? 'packages__tab packages__tab--active' : 'packages__tab'} onClick={() => setTab(t.id)}>
                  {t.label}
                </button>
              ))}
          </nav>
          <section className="packages__body">
            {current === 'me' && (
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
            {current === 'scan' && <ScanTab api={api} />}
            {current === 'history' && <HistoryTab api={api} />}
            {current === 'package' && <PackageTab api={api} />}
            {current === 'store' && <StoreTab api={api} canImport={can(me, 'scan:create')} />}
            {current === 'vulns' && <VulnsTab api={api} canImport={can(me, 'system:write')} />}
            {current === 'projects' && <ProjectsTab api={api} canWrite={can(me, 'project:write')} />}
            {current === 'containers' && <ContainersTab api={api} canScan={can(me, 'container:scan')} canRead={can(me, 'scan:read')} />}
            {current === 'diffs' && <DiffsTab api={api} canCreate={can(me, 'diff:create')} />}
            {current === 'monitoring' && <MonitoringTab api={api} canWrite={can(me, 'monitor:write')} canReadEvents={can(me, 'event:read')} />}
            {current === 'users' && <UsersTab api={api} me={me} />}
            {current === 'policies' && <PoliciesTab api={api} me={me} />}
            {current === 'exceptions' && <ExceptionsTab api={api} me={me} />}
            {current === 'events' && <EventsTab api={api} me={me} />}
            {current === 'audit' && <AuditTab api={api} />}
          </section>
        </>
      )}
    </div>
  );
}
