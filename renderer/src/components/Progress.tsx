// A thin progress bar: determinate when a fraction is known, otherwise a static striped bar (no spinner animation).
import type { JobInfo } from '../../../engines/core/contracts/gateway';

/**
 * The fraction a workspace's bar shows for its job: none (striped) while the job waits in the queue or has not reported
 * a step yet, since an empty determinate bar reads as "nothing is happening"; else the job's own fraction.
 */
export function jobBarFraction(job: JobInfo | undefined): number | undefined {
  if (!job || job.state === 'queued' || job.fraction <= 0) return undefined;
  return job.fraction;
}

export function Progress({ fraction, label }: { readonly fraction?: number | undefined; readonly label: string }) {
  const known = fraction !== undefined && Number.isFinite(fraction);
  const pct = known ? Math.round(Math.min(1, Math.max(0, fraction)) * 100) : undefined;
  return (
    <div
      className={`progress${known ? '' : ' progress--unknown'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(pct !== undefined ? { 'aria-valuenow': pct } : {})}
    >
      <div className="progress__fill" style={{ width: known ? `${pct}%` : '100%' }} />
    </div>
  );
}
