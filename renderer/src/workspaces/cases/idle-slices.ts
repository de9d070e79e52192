// Work done in short slices while the page is idle: each slice ends at the idle deadline or after SLICE_MS, whichever comes first, so a key pressed meanwhile waits a few milliseconds at most.
/** The longest one slice runs (milliseconds), even in a long idle period: about half a frame. */
export const SLICE_MS = 8;

interface IdleDeadline {
  timeRemaining(): number;
}

/** What the slices run on (the window in the page; a fake clock and queue in tests). */
export interface IdleHost {
  readonly now: () => number;
  /** Absent where the browser has no idle callbacks (jsdom): slices then follow each other through setTimeout. */
  readonly requestIdle?: (run: (deadline: IdleDeadline) => void) => () => void;
  readonly later: (run: () => void) => () => void;
}

/** The page's own: performance.now, requestIdleCallback where the browser has it, setTimeout. */
export function pageHost(): IdleHost {
  const w = globalThis as typeof globalThis & { requestIdleCallback?: (cb: (d: IdleDeadline) => void) => number; cancelIdleCallback?: (h: number) => void };
  const { requestIdleCallback: request, cancelIdleCallback: cancel } = w;
  return {
    now: () => performance.now(),
    ...(request !== undefined && cancel !== undefined
      ? {
          requestIdle: (run: (deadline: IdleDeadline) => void) => {
            const h = request(run);
            return () => cancel(h);
          },
        }
      : {}),
    later: (run) => {
      const t = setTimeout(run, 0);
      return () => clearTimeout(t);
    },
  };
}

/**
 * Runs `work` slice by slice until it says it is done (returns true); it is given the milliseconds left in its slice
 * and must stop soon after they reach 0. Returns a cancel function (nothing more runs after it).
 */
export function runInIdleSlices(work: (timeLeft: () => number) => boolean, host: IdleHost = pageHost()): () => void {
  let cancel: () => void = () => undefined;
  let stopped = false;
  const slice = (deadline: IdleDeadline | null): void => {
    if (stopped) return;
    const start = host.now();
    const timeLeft = (): number => Math.min(SLICE_MS - (host.now() - start), deadline === null ? SLICE_MS : deadline.timeRemaining());
    if (!work(timeLeft)) schedule();
  };
  const schedule = (): void => {
    cancel = host.requestIdle !== undefined ? host.requestIdle((d) => slice(d)) : host.later(() => slice(null));
  };
  schedule();
  return () => {
    stopped = true;
    cancel();
  };
}
