// Pure helpers of the Monitoring tab: the poll interval as minutes/hours/days and back, its 300 s..7 days limits, result and state wording.
import type { MonitorResult, WatchedPackage } from '../../../../../engines/core/contracts/pkgscan-monitoring';
import { counted } from '../../../components/wording';

/** The service's limits on poll_interval_seconds (docs/pkgscan-monitoring.md). */
export const MIN_INTERVAL = 300;
export const MAX_INTERVAL = 604_800;
export const DEFAULT_INTERVAL = 3600;

export type IntervalUnit = 'minutes' | 'hours' | 'days';
export const UNIT_SECONDS: Readonly<Record<IntervalUnit, number>> = { minutes: 60, hours: 3600, days: 86_400 };

/** Seconds from what the analyst typed, or a sentence saying why not (whole numbers within 5 minutes..7 days). */
export function intervalSeconds(value: string, unit: IntervalUnit): { seconds: number } | { error: string } {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return { error: 'Give the interval as a whole number.' };
  const seconds = Number(v) * UNIT_SECONDS[unit];
  if (seconds < MIN_INTERVAL || seconds > MAX_INTERVAL) return { error: 'The interval must be between 5 minutes and 7 days.' };
  return { seconds };
}

/** The largest unit that divides the seconds exactly, for the edit form. */
export function splitInterval(seconds: number): { value: string; unit: IntervalUnit } {
  if (seconds % 86_400 === 0) return { value: String(seconds / 86_400), unit: 'days' };
  if (seconds % 3600 === 0) return { value: String(seconds / 3600), unit: 'hours' };
  return { value: String(Math.max(1, Math.round(seconds / 60))), unit: 'minutes' };
}

/** "every 5 min", "every 1 h 30 min", "every 7 days". */
export function intervalText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  if (seconds % 86_400 === 0) return `every ${seconds / 86_400} ${seconds === 86_400 ? 'day' : 'days'}`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  if (h === 0) return `every ${m} min`;
  return m === 0 ? `every ${h} h` : `every ${h} h ${m} min`;
}

/** A check result in words. */
export function resultText(result: MonitorResult | null): string {
  switch (result) {
    case 'baseline':
      return 'baseline taken';
    case 'unchanged':
      return 'unchanged';
    case 'new_release':
      return 'new release';
    case 'error':
      return 'failed';
    default:
      return 'not checked yet';
  }
}

/** The tone of a result's tag: new releases and failures stand out. */
export function resultTone(result: MonitorResult | null): 'danger' | 'warn' | 'ok' | 'none' {
  if (result === 'error') return 'danger';
  if (result === 'new_release') return 'warn';
  if (result === 'baseline' || result === 'unchanged') return 'ok';
  return 'none';
}

/** When the next check is relative to `now`: "due now", "in 12 min", "in 3 h", "in 2 days". */
export function dueText(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.round((t - now) / 1000);
  if (s <= 0) return 'due now';
  if (s < 3600) return `in ${Math.max(1, Math.round(s / 60))} min`;
  if (s < 86_400 * 2) return `in ${Math.round(s / 3600)} h`;
  return `in ${counted(Math.round(s / 86_400), 'day')}`;
}

/** The state of a watched package in one phrase: disabled, failing (n in a row), or watching. */
export function stateText(w: Pick<WatchedPackage, 'enabled' | 'failing' | 'consecutive_failures'>): string {
  if (!w.enabled) return 'disabled';
  if (w.failing) return `failing (${w.consecutive_failures} in a row)`;
  return 'watching';
}

/** Monitoring event types the events panel filters on. */
export const MONITOR_EVENT_TYPES = ['new_release_detected', 'risk_escalated', 'monitor_error', 'behavior_drift_detected', 'maintainer_changed'] as const;
