// Hooks every Packages tab shares: a user-started write that keeps the refusal, the elapsed seconds of a running call
// (a load that follows its inputs is components/useLoad.ts, shared by every workspace).
import { useCallback, useEffect, useState } from 'react';
import { type ApiError, asApiError } from '../../../api/client';

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
