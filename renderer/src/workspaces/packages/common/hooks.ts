// Hooks every Packages tab shares: a load that follows its inputs, a user-started write that keeps the refusal, the elapsed seconds of a running call.
import { useCallback, useEffect, useState } from 'react';
import { type ApiError, asApiError } from '../../../api/client';


export interface Loaded<T> {
  readonly data: T | null;
  readonly error: ApiError | null;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Runs `load` whenever `deps` change; a slower, older answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (d) => {
        if (live) {
          setData(d);
          setError(null);
          setLoading(false);
        }
      },
      (err: unknown) => {
        if (live) {
          setError(asApiError(err));
          setLoading(false);
        }
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data, error, loading, reload };
}

/** A write the user started: clears the last error, runs, keeps the service's refusal to show. */
export function useAction(): { error: ApiError | null; run: (fn: () => Promise<void>) => Promise<void>; clear: () => void } {
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async (fn: () => Promise<void>): Promise<void> => {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(asApiError(err));
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { error, run, clear };
}

/** Whole seconds since `since` (ms epoch), ticking once a second while `since` is set. */
export function useElapsed(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}
