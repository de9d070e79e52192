// Whole-page states that say what to do: no token, token refused, gateway unreachable, gateway error, no services.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { tokenFromUserInput } from '../api/token';
import { ErrorNote } from '../components/ErrorNote';

function Screen({ title, children, testId }: { readonly title: string; readonly children: ReactNode; readonly testId: string }) {
  return (
    <section className="screen" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <div className="screen__card">
        <h1 id={`${testId}-title`} className="screen__title">
          {title}
        </h1>
        {children}
      </div>
    </section>
  );
}

export function TokenScreen({ reason, onToken }: { readonly reason: 'missing' | 'refused'; readonly onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const token = tokenFromUserInput(value);
    if (token === undefined) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setValue('');
    onToken(token);
  };
  return (
    <Screen title={reason === 'missing' ? 'Vitrine needs its access token' : 'The gateway refused the access token'} testId="token-help">
      <p>
        {reason === 'missing'
          ? 'This page was opened without the token that the local gateway requires, so it cannot ask the gateway for anything yet.'
          : 'The token this page holds is not the one the gateway expects: it may come from another data directory or an earlier installation.'}
      </p>
      <h2>How to get it</h2>
      <ol className="steps">
        <li>
          Start the workstation with <code>vitrine serve</code> (from a checkout: <code>./bin/vitrine serve</code>). It prints an address such as{' '}
          <code>http://127.0.0.1:PORT/#token=…</code>. Open that exact address: the page keeps the token for this tab only and removes it from the
          address bar.
        </li>
        <li>
          Or read the file <code>token</code> in the workstation&apos;s data directory (<code>$VITRINE_HOME/token</code>, readable only by you) and
          paste its content below.
        </li>
        <li>In the desktop app the token arrives by itself; if you see this there, restart the app.</li>
      </ol>
      <form className="token-form" onSubmit={submit}>
        <label htmlFor={inputId}>Address or token</label>
        <div className="row">
          <input
            id={inputId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={invalid ? `${inputId}-err` : undefined}
          />
          <button type="submit" className="primary">
            Use token
          </button>
        </div>
        {invalid && (
          <div id={`${inputId}-err`} className="field-error" role="alert">
            That is neither a token nor an address containing <code>#token=</code>.
          </div>
        )}
      </form>
    </Screen>
  );
}

export function UnreachableScreen({ onRetry }: { readonly onRetry: () => void }) {
  return (
    <Screen title="The gateway does not answer" testId="gateway-unreachable">
      <p>This page could not reach the Vitrine gateway at {window.location.origin}.</p>
      <ol className="steps">
        <li>
          Start it with <code>vitrine serve</code> (from a checkout: <code>./bin/vitrine serve</code>) and open the address it prints.
        </li>
        <li>If it is running, check that it listens on the same host and port as this page&apos;s address.</li>
      </ol>
      <p className="muted">The workstation checks again every few seconds.</p>
      <button type="button" className="primary" onClick={onRetry}>
        Try again now
      </button>
    </Screen>
  );
}

export function FailedScreen({ error, onRetry }: { readonly error: { code: string; message: string; requestId?: string } | null; readonly onRetry: () => void }) {
  const e = error ? new ApiError(-1, error.code, error.message, error.requestId) : new ApiError(-1, 'unknown', 'The gateway answered with an error.');
  return (
    <Screen title="The gateway answered with an error" testId="gateway-failed">
      <ErrorNote error={e} title="What it said" />
      <p className="muted">Quote the request id when you report this; the gateway logs it.</p>
      <button type="button" className="primary" onClick={onRetry}>
        Try again
      </button>
    </Screen>
  );
}

export function NoServicesScreen() {
  return (
    <Screen title="No analysis services are mounted" testId="no-services">
      <p>The gateway answered but offers no services, so there is no workspace to show.</p>
      <p>
        Services are composed in <code>main/services.ts</code>; a build that includes them shows their workspaces in the sidebar as soon as the
        gateway mounts them.
      </p>
    </Screen>
  );
}

export function ConnectingScreen() {
  return (
    <Screen title="Connecting to the gateway…" testId="connecting">
      <p className="muted">Asking the local gateway for its health and services.</p>
    </Screen>
  );
}
