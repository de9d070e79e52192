// Hooks every Packages tab shares: a user-started write that keeps the refusal, the elapsed seconds of a running call,
// files uploaded one at a time (a load that follows its inputs is components/useLoad.ts, shared by every workspace).
import { useCallback, useEffect, useRef, useState } from 'react';
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

/**
 * A file of an upload queue: refused at once (why in `note`), waiting its turn, failed (the service's refusal), or in one
 * of the states `S` its sending gives it.
 */
export type UploadItem<S extends { readonly state: string }> =
  | { readonly key: number; readonly file: string; readonly state: 'waiting' }
  | { readonly key: number; readonly file: string; readonly state: 'refused'; readonly note: string }
  | { readonly key: number; readonly file: string; readonly state: 'failed'; readonly error: ApiError }
  | (S & { readonly key: number; readonly file: string });

/**
 * Files sent one at a time (the service reads each in full, and the machine is shared): `take` lists each file at once,
 * newest first, refused when `refuse` says why, else waiting; then `send` runs after the sends before it, giving the
 * item its states through `update`; an error it throws marks the item failed.
 */
export function useUploadQueue<S extends { readonly state: string }>(
  refuse: (file: File) => string | null,
  send: (file: File, update: (next: S) => void) => Promise<void>,
): { items: readonly UploadItem<S>[]; take: (files: readonly File[]) => void; retain: (keep: (item: UploadItem<S>) => boolean) => void } {
  const [items, setItems] = useState<UploadItem<S>[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const keys = useRef(0);
  const take = (files: readonly File[]): void => {
    for (const file of files) {
      const key = ++keys.current;
      const update = (next: UploadItem<S>): void => setItems((list) => list.map((i) => (i.key === key ? next : i)));
      const why = refuse(file);
      if (why !== null) {
        setItems((list) => [{ key, file: file.name, state: 'refused', note: why }, ...list]);
        continue;
      }
      setItems((list) => [{ key, file: file.name, state: 'waiting' }, ...list]);
      queue.current = queue.current.then(async () => {
        try {
          await send(file, (next) => update({ ...next, key, file: file.name }));
        } catch (err) {
          update({ key, file: file.name, state: 'failed', error: asApiError(err) });
        }
      });
    }
  };
  /** Drops the items `keep` refuses (a Clear that leaves what is still going). */
  const retain = (keep: (item: UploadItem<S>) => boolean): void => setItems((list) => list.filter(keep));
  return { items, take, retain };
}
