// Repeated measures in the benches: a call's CPU and wall time, their median, "median (min-max)" for a table cell, the
// main thread's CPU time; and the value of a command-line option.
import { readFileSync } from 'node:fs';

export function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The q-quantile (0..1) of ascending measures, by the nearest rank below; NaN for none. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** "p50 … ms, p99 … ms, max … ms (n samples)" of latencies in milliseconds, as the stall benches print them. */
export function latencySummary(ms: readonly number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms (${ms.length} samples)`;
}

/** "median (min-max)" of measures written by `format`; one measure alone, `format(undefined)` for none. */
export function medianRange(v: readonly number[], format: (x: number | undefined) => string): string {
  if (v.length < 2) return format(v[0]);
  return `${format(median(v))} (${format(Math.min(...v))}-${format(Math.max(...v))})`;
}

/**
 * The main thread's CPU seconds so far (Linux per-thread scheduler statistics), or null elsewhere: process CPU time
 * minus this is what V8's compiler and collector threads spent.
 */
export function mainThreadSeconds(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) and wall seconds of fn; CPU is the fair measure on a shared machine. */
export function timed<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1e6, wall };
}

/** The value given after a command-line option (`--set DIR`), or undefined when the option is not given. */
export function optionValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}
