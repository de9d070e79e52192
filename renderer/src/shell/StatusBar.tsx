// The status bar: gateway health (polled), running jobs with progress and cancel, theme and help buttons.
import { useState } from 'react';
import type { GatewayHealth, JobInfo } from '../../../engines/core/contracts/gateway';
import { ApiError } from '../api/client';
import { Progress } from '../components/Progress';
import { utcTime } from '../components/time';
import { activeJobs, lastFinishedJob } from '../store';
import { useShell, useShellContext } from './context';
import { useSystemPrefersDark } from './useTheme';

const CONNECTION_WORDS = {
  connecting: 'Connecting',
  online: 'Gateway ok',
  unreachable: 'Gateway unreachable',
  unauthorized: 'Token refused',
  failed: 'Gateway error',
} as const;

const JOB_END_WORDS: Partial<Record<JobInfo['state'], string>> = { succeeded: 'done', failed: 'failed', cancelled: 'cancelled' };

function JobChip({ job }: { readonly job: JobInfo }) {
  const { client } = useShellContext();
  const [problem, setProblem] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const name = job.label ?? job.type;
  const cancel = async (): Promise<void> => {
    if (!client) return;
    setAsked(true);
    try {
      await client.post(`/api/jobs/${encodeURIComponent(job.id)}/cancel`, {});
      setProblem(null);
    } catch (err) {
      setAsked(false);
      setProblem(err instanceof ApiError ? `${err.message}${err.requestId ? ` (request ${err.requestId})` : ''}` : 'Cancel failed.');
    }
  };
  return (
    <div className="job" data-testid="job" title={job.message ?? name}>
      <span className="job__name">{name}</span>
      <Progress fraction={job.state === 'queued' ? undefined : job.fraction} label={`${name} progress`} />
      <span className="job__pct">{job.state === 'queued' ? 'queued' : `${Math.round(job.fraction * 100)}%`}</span>
      <button type="button" className="small" onClick={() => void cancel()} disabled={asked} aria-label={`Cancel ${name}`}>
        {asked ? 'Cancelling…' : 'Cancel'}
      </button>
      {problem && (
        <span className="job__problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * The workers line: busy of all, then those still starting (not free, though not busy: a job queued behind them waits
 * for their start) and the jobs waiting, each only when there are any.
 */
function workersText(workers: GatewayHealth['workers']): string {
  const starting = workers.starting ?? 0;
  return `workers ${workers.busy}/${workers.size} busy${starting > 0 ? ` · ${starting} starting` : ''}${workers.queued > 0 ? ` · ${workers.queued} queued` : ''}`;
}

export function StatusBar() {
  const connection = useShell((s) => s.connection);
  const health = useShell((s) => s.health);
  const jobs = useShell((s) => s.jobs);
  const theme = useShell((s) => s.theme);
  const cycleTheme = useShell((s) => s.cycleTheme);
  const openOverlay = useShell((s) => s.openOverlay);
  const systemDark = useSystemPrefersDark();
  const running = activeJobs(jobs);
  const last = running.length === 0 ? lastFinishedJob(jobs) : undefined;
  return (
    <footer className="statusbar" aria-label="Status">
      <div className={`health health--${connection}`} data-testid="gateway-health" role="status">
        <span className="health__dot" aria-hidden="true" />
        <span>{CONNECTION_WORDS[connection]}</span>
        {health && connection === 'online' && <span className="muted">v{health.version} · {workersText(health.workers)}</span>}
      </div>
      <div className="jobs" aria-label="Running jobs">
        {running.length === 0 ? (
          <span className="muted">
            No jobs running
            {last && (
              <span data-testid="last-job">
                {' '}
                · last: {last.label ?? last.type} {JOB_END_WORDS[last.state] ?? last.state}
                {last.finished_at ? ` at ${utcTime(last.finished_at)}` : ''}
              </span>
            )}
          </span>
        ) : (
          running.map((j) => <JobChip key={j.id} job={j} />)
        )}
      </div>
      <div className="statusbar__tools">
        <button type="button" className="small" onClick={() => cycleTheme(systemDark)} title="Switch theme (light, dark, follow the system)">
          Theme: {theme === 'system' ? `system (${systemDark ? 'dark' : 'light'})` : theme}
        </button>
        <button type="button" className="small" onClick={() => openOverlay('help')} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
          ?
        </button>
      </div>
    </footer>
  );
}
