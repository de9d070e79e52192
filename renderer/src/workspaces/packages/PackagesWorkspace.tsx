// The Packages workspace (shell of the package scanning service): sign in, then its sections (tabs.tsx: package scans,
// projects, containers, release diffs, monitoring, and the platform's users, policies, exceptions, events, audit).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Me, TokenResponse } from '../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../components/ErrorNote';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import type { WorkspaceProps } from '../registry';
import { usePackagesNav } from './common/nav';
import { openInPackages } from './common/open';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { useLoad } from '../../components/useLoad';
import { PACKAGES_TABS, shownTabs, type Tab } from './tabs';
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
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const tokenRef = useRef<string | null>(null);
  // The sign-in form and the Sign out button go away when pressed, which leaves focus on the page: after a sign-in through
  // the form the selected section tab takes it, after a sign-out the E-mail field. A session resumed on load takes none.
  const [formSignIns, setFormSignIns] = useState(0);
  const [signOuts, setSignOuts] = useState(0);
  const selectedTab = useRef<HTMLButtonElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
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
  // A session kept by the service's refresh cookie signs in without the form. Taken before the page is painted, so the
  // form never flashes up between the answer and the token.
  const resumed = useLoad(() => resume(client, base), [client, base]);
  const checking = resumed.loading;
  useLayoutEffect(() => {
    if (resumed.data) signedIn(resumed.data);
  }, [resumed.data, signedIn]);

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
      setFormSignIns((n) => n + 1);
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const signOut = async (): Promise<void> => {
    await logout(client, base);
    signedOut();
    resetNav();
    setSignOuts((n) => n + 1);
  };

  const tabs = shownTabs(PACKAGES_TABS, me);
  useFocusWhenLost(selectedTab, me !== null && formSignIns > 0 ? formSignIns : null);
  useFocusWhenLost(emailField, token === null && signOuts > 0 ? signOuts : null);

  // A tab the user may not see (another user signed in here before) falls back to the account page.
  const current: Tab = tabs.some((t) => t.id === tab) ? tab : 'me';

  /** ← and → move between the tabs (the tab list is one stop for Tab, as WAI-ARIA tabs are); Home and End go to the ends. */
  const moveTab = (key: string): void => {
    const shown = tabs.map((t) => t.id);
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
          <h2>Sign in</h2>
          <p className="muted small">
            Package scanning has its own users. The first admin is created on this workstation with <code>pkgscan create-admin --email ADDRESS</code>.
          </p>
          <label>
            E-mail
            <input ref={emailField} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} />
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
            {tabs.map((t) => (
                <button key={t.id} ref={current === t.id ? selectedTab : undefined} id={`pk-tab-${t.id}`} type="button" role="tab" aria-selected={current === t.id} tabIndex={current === t.id ? 0 : -1} className={current === t.id ? 'packages__tab packages__tab--active' : 'packages__tab'} onClick={() => setTab(t.id)}>
                  {t.label}
                </button>
              ))}
          </nav>
          <section className="packages__body">
            {tabs.find((t) => t.id === current)?.render({ api, me, can: (p) => can(me, p) })}
          </section>
        </>
      )}
    </div>
  );
}
