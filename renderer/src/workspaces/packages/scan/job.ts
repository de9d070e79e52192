// The scan's own job among the gateway's job events: POST /scans answers only at the end, but the service's job reports its phase and fraction meanwhile.
import { useContext } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { JobInfo } from '../../../../../engines/core/contracts/gateway';
import { ShellContext } from '../../../shell/context';
import { activeJobs } from '../../../store';

type Jobs = Readonly<Record<string, JobInfo>>;

/** Outside the shell (unit tests) there are no job events: the bar stays indeterminate. */
const NO_JOBS: StoreApi<{ jobs: Jobs }> = createStore(() => ({ jobs: {} }));

/**
 * The running pkgscan scan job that is most likely this request's: started no earlier than two seconds before
 * the request, its label naming the package when one does, newest first. Undefined when none is seen.
 */
export function scanJobOf(jobs: Jobs, since: number, name: string): JobInfo | undefined {
  const candidates = activeJobs(jobs).filter((j) => j.service === 'pkgscan' && j.type.includes('scan') && Date.parse(j.started_at) >= since - 2000);
  const named = candidates.filter((j) => j.label?.includes(name));
  return (named.length > 0 ? named : candidates).at(-1);
}

export function useScanJob(since: number | null, name: string): JobInfo | undefined {
  const ctx = useContext(ShellContext);
  const jobs = useStore((ctx?.store ?? NO_JOBS) as StoreApi<{ jobs: Jobs }>, (s) => s.jobs);
  return since === null ? undefined : scanJobOf(jobs, since, name);
}
