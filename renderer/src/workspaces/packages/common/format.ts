// Small pure formatters the Packages tabs share (times, sizes, scores, the list page size).
import { utcTime } from '../../../components/time';
import { counted } from '../../../components/wording';

export const PAGE = 50;

/** An ISO time as `YYYY-MM-DD HH:MM:SS UTC` (components/time.ts); empty for null. */
export function when(iso: string | null | undefined): string {
  return utcTime(iso);
}

export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** A 0..1 score as a percentage without decimals; an em dash when unknown. */
export function pct(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? '—' : `${Math.round(score * 100)}%`;
}

export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** "12 s" / "2 min 05 s" for a running call. */
export function elapsed(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** The age of an ISO time relative to `now` in whole days, hours or minutes; empty for null. */
export function age(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min`;
  if (s < 86_400 * 2) return `${Math.round(s / 3600)} h`;
  return counted(Math.round(s / 86_400), 'day');
}

/** A message as a sentence: capitalised, ending with a full stop (service messages are lower-case phrases). */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return '';
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
