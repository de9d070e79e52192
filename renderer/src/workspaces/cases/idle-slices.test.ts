// Idle slices: each ends at the idle deadline or after SLICE_MS, whichever is first; the next waits for the next idle period; cancelling stops them.
import { describe, expect, it } from 'vitest';
import { runInIdleSlices, SLICE_MS, type IdleHost } from './idle-slices';

/** A fake clock and queue: `idle(ms)` runs the queued slice with an idle period of `ms`. */
function fakeHost(withIdle: boolean): { host: IdleHost; clock: { now: number }; pending: () => number; idle: (ms: number) => void } {
  const clock = { now: 0 };
  let queued: ((remaining: number) => void) | null = null;
  const host: IdleHost = {
    now: () => clock.now,
    later: (run) => {
      queued = () => run();
      return () => (queued = null);
    },
    ...(withIdle
      ? {
          requestIdle: (run) => {
            const start = clock.now;
            let period = 0;
            queued = (remaining) => {
              period = remaining;
              run({ timeRemaining: () => Math.max(0, period - (clock.now - start)) });
            };
            return () => (queued = null);
          },
        }
      : {}),
  };
  return {
    host,
    clock,
    pending: () => (queued === null ? 0 : 1),
    idle: (ms) => {
      const q = queued;
      queued = null;
      q?.(ms);
    },
  };
}

/** Work of `units` steps of 1 ms each on the fake clock, stopping when the slice has no time left; records each slice's length. */
function work(clock: { now: number }, units: number) {
  const slices: number[] = [];
  let left = units;
  const run = (timeLeft: () => number): boolean => {
    const start = clock.now;
    while (left > 0) {
      clock.now += 1;
      left--;
      if (timeLeft() <= 0) break;
    }
    slices.push(clock.now - start);
    return left === 0;
  };
  return { run, slices };
}

describe('runInIdleSlices', () => {
  it('ends a slice after SLICE_MS in a long idle period, at the deadline in a short one, and goes on until done', () => {
    const f = fakeHost(true);
    const w = work(f.clock, 30);
    runInIdleSlices(w.run, f.host);
    expect(w.slices).toEqual([]);
    f.idle(50);
    f.idle(3);
    f.idle(50);
    f.idle(50);
    f.idle(50);
    expect(w.slices).toEqual([SLICE_MS, 3, SLICE_MS, SLICE_MS, 30 - 3 - 3 * SLICE_MS]);
    expect(f.pending()).toBe(0);
  });

  it('without idle callbacks, slices of SLICE_MS follow each other; cancelled, no slice runs', () => {
    const f = fakeHost(false);
    const w = work(f.clock, 20);
    const cancel = runInIdleSlices(w.run, f.host);
    f.idle(0);
    expect(w.slices).toEqual([SLICE_MS]);
    cancel();
    expect(f.pending()).toBe(0);
    f.idle(0);
    expect(w.slices).toEqual([SLICE_MS]);
  });
});
