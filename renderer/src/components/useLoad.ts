// A value read from a service that follows its inputs: the one guard, for every screen, against a slower, older
// answer overwriting a newer one or landing after the screen has gone. Linted like useEffect: its deps list is
// checked by react-hooks/exhaustive-deps (additionalHooks in eslint.config.ts).
import { useCallback, useEffect, useState, type DependencyList } from 'react';
import { type ApiError, asApiError } from '../api/client';

export interface Loaded<T> {
  /** The last value loaded (kept while the next one loads, unless `reset`); null before the first or when nothing is loaded. */
  readonly data: T | null;
  /** Why the last load failed; cleared by the next value. */
  readonly error: ApiError | null;
  readonly loading: boolean;
  /** Loads again with the same inputs. */
  readonly reload: () => void;
}

export interface LoadOptions {
  /** Forget the value and the error as soon as the inputs change (a different item), rather than showing them until the new one arrives. */
  readonly reset?: boolean;
  /** Start the load this long after the last change of the inputs (text being typed). */
  readonly delayMs?: number;
}

interface State<T> {
  readonly data: T | null;
  readonly error: ApiError | null;
  readonly loading: boolean;
}

/** Runs `load` whenever `deps` change (and on reload); `load` returning null loads nothing: no value, not loading. */
export function useLoad<T>(load: () => Promise<T> | null, deps: DependencyList, options: LoadOptions = {}): Loaded<T> {
  const { reset = false, delayMs = 0 } = options;
  const [state, setState] = useState<State<T>>({ data: null, error: null, loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    const start = (): void => {
      const pending = load();
      if (pending === null) {
        setState({ data: null, error: null, loading: false });
        return;
      }
      pending.then(
        (data) => {
          if (live) setState({ data, error: null, loading: false });
        },
        (err: unknown) => {
          if (live) setState((s) => ({ data: s.data, error: asApiError(err), loading: false }));
        },
      );
    };
    setState((s) => (reset ? { data: null, error: null, loading: true } : s.loading ? s : { ...s, loading: true }));
    const timer = delayMs > 0 ? setTimeout(start, delayMs) : undefined;
    if (timer === undefined) start();
    return () => {
      live = false;
      if (timer !== undefined) clearTimeout(timer);
    };
    // `load` is a new closure on every render; what it reads is `deps`, which the lint checks at each call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, n, reset, delayMs]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { ...state, reload };
}
