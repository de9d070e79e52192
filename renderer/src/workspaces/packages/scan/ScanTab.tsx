// The Scan tab: ecosystem, name, version and environment (Enter submits), an indeterminate progress bar with the elapsed time while the service scans, then the verdict.
import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { PageOf, Policy, ScanVerdict } from '../../../../../engines/core/contracts/pkgscan';
import { type ApiError, asApiError } from '../../../api/client';
import { ErrorNote } from '../../../components/ErrorNote';
import { Progress } from '../../../components/Progress';
import { elapsed, sentence } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { useElapsed } from '../common/hooks';
import { usePackagesNav } from '../common/nav';
import { Banner, PackageFields } from '../common/ui';
import { type PkgscanApi } from '../session';
import { useScanJob } from './job';
import { VerdictView } from './VerdictView';
import { SendToButton } from '../../../components/SendTo';
import { verdictFinding } from '../../../components/findings';
import { useFocusWhenLost } from '../../../components/useDialogFocus';

import type { Ecosystem } from '../store/model';

/** The distinct environments of the stored policies, the active ones' first. */
export function environmentsOf(policies: readonly Pick<Policy, 'environment' | 'active'>[]): string[] {
  const active = policies.filter((p) => p.active).map((p) => p.environment);
  return [...new Set([...active, ...policies.map((p) => p.environment)])];
}

export function ScanTab({ api }: { api: PkgscanApi }) {
  const policies = useLoad(() => api.get<PageOf<Policy>>('/policies', { limit: 500 }), [api]);
  const environments = useMemo(() => environmentsOf(policies.data?.items ?? []), [policies.data]);
  const verdict = usePackagesNav((s) => s.lastVerdict);
  // The Scan button is disabled while the service scans, which leaves focus on the page: the verdict's heading takes it.
  const verdictHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(verdictHeading, verdict);
  const setVerdict = usePackagesNav((s) => s.setLastVerdict);
  // Back on this tab, the form shows what the verdict on screen was asked for.
  const [ecosystem, setEcosystem] = useState<Ecosystem>(verdict?.ecosystem ?? 'npm');
  const [name, setName] = useState(verdict?.name ?? '');
  const [version, setVersion] = useState(verdict?.version ?? '');
  const [environment, setEnvironment] = useState(verdict?.environment ?? '');
  const [started, setStarted] = useState<number | null>(null);
  const [asked, setAsked] = useState<string>('');
  const [error, setError] = useState<ApiError | null>(null);
  const seconds = useElapsed(started);
  const job = useScanJob(started, name.trim());
  const openTab = usePackagesNav((s) => s.setTab);
  const nameInput = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (started !== null || name.trim() === '') return;
    const body = { ecosystem, name: name.trim(), ...(version.trim() ? { version: version.trim() } : {}), ...(environment ? { environment } : {}) };
    setAsked(`${ecosystem}/${body.name}${body.version ? `@${body.version}` : ' (newest known release)'}`);
    setError(null);
    setVerdict(null);
    setStarted(Date.now());
    try {
      setVerdict(await api.post<ScanVerdict>('/scans', body));
    } catch (err) {
      setError(asApiError(err));
      nameInput.current?.focus();
    } finally {
      setStarted(null);
    }
  };

  return (
    <div className="pk-scan">
      <form className="panel pk-scan__form" aria-label="Scan a package" onSubmit={(e) => void submit(e)} data-testid="scan-form">
        <PackageFields ecosystem={ecosystem} onEcosystem={setEcosystem} name={name} onName={setName} nameRef={nameInput} autoFocus />
        <label>
          Version
          <input value={version} onChange={(e) => setVersion(e.target.value)} maxLength={128} placeholder="newest known" spellCheck={false} />
        </label>
        <label>
          Environment
          <select value={environment} onChange={(e) => setEnvironment(e.target.value)}>
            <option value="">service default</option>
            {environments.map((env) => (
              <option key={env} value={env}>
                {env}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={started !== null}>
          Scan
        </button>
      </form>
      <p className="muted small pk-hint">
        The release is read from the package store (import archives in the Store tab) or the configured registry mirror; nothing is installed or run. Enter starts the scan.
      </p>
      {started !== null && (
        <div className="panel" data-testid="scan-progress" aria-live="polite">
          <div className="small">
            Scanning {asked}: {job?.message ?? 'reading the archive, running the analyzers, checking provenance and advisories'}… <span className="muted">{elapsed(seconds)}</span>
          </div>
          <Progress fraction={job && job.fraction > 0 ? job.fraction : undefined} label={`Scanning ${asked}`} />
        </div>
      )}
      {error && error.status === 404 && (
        <Banner tone="warn" title={`No source holds ${asked}`} testId="scan-not-found">
          {sentence(error.message)} Check the name and version, or import the release archive in the{' '}
          <button type="button" className="packages__goto" onClick={() => openTab('store')}>
            Store tab
          </button>{' '}
          and scan again. A scan never falls back to another release.
        </Banner>
      )}
      {error && error.status !== 404 && <ErrorNote error={error} title={error.status === 422 ? 'The scan request was refused' : 'The scan failed'} />}
      {verdict && (
        <div className="row">
          <span className="spacer" />
          <SendToButton testId="verdict-send-to" finding={verdictFinding(verdict)} />
        </div>
      )}
      {verdict && <VerdictView verdict={verdict} headingRef={verdictHeading} />}
      {!verdict && !error && started === null && (
        <div className="panel empty-result">
          <p className="muted">No scan yet in this session. Name a package above; past verdicts are in the History tab.</p>
        </div>
      )}
    </div>
  );
}
