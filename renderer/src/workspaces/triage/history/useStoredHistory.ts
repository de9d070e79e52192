// The stored history of the Triage workspace: a page of GET /api/analyses under the panel's filter (verdict, name or SHA-256), reloaded on demand,
// and the reads that bring one stored analysis back (by id, or the newest of a SHA-256).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoredAnalysis, StoredAnalysisPage } from '../../../../../engines/core/contracts/petriage';
import type { ApiError} from '../../../api/client';
import { type ApiClient, asApiError } from '../../../api/client';
import { storedQuery, type StoredFilter } from './model';

export interface StoredHistory {
  readonly page: StoredAnalysisPage | null;
  readonly error: ApiError | null;
  readonly problem: string | null;
  readonly loading: boolean;
  readonly filter: StoredFilter;
  readonly setFilter: (f: StoredFilter) => void;
  readonly load: (offset: number) => void;
  readonly reload: () => void;
}

export function useStoredHistory(client: ApiClient, base: string): StoredHistory {
  const [page, setPage] = useState<StoredAnalysisPage | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  const [filter, setFilterState] = useState<StoredFilter>({ verdict: '', text: '' });
  const [offset, setOffset] = useState(0);
  const seq = useRef(0);
  const built = storedQuery(filter, offset);
  const problem = 'problem' in built ? built.problem : null;
  const queryKey = 'query' in built ? JSON.stringify(built.query) : null;

  const fetchPage = useCallback(
    async (key: string): Promise<void> => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const p = await client.get<StoredAnalysisPage>(`${base}/api/analyses`, { query: JSON.parse(key) as Record<string, string | number> });
        if (mine !== seq.current) return;
        setPage(p);
        setError(null);
      } catch (err) {
        if (mine === seq.current) setError(asApiError(err));
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [client, base],
  );

  useEffect(() => {
    if (queryKey !== null) void fetchPage(queryKey);
  }, [queryKey, fetchPage]);

  return {
    page,
    error,
    problem,
    loading,
    filter,
    setFilter: (f) => {
      setFilterState(f);
      setOffset(0);
    },
    load: setOffset,
    reload: () => {
      if (queryKey !== null) void fetchPage(queryKey);
    },
  };
}

/** One stored analysis by its id (a search hit, a History row). */
export function fetchStored(client: ApiClient, base: string, id: string): Promise<StoredAnalysis> {
  return client.get<StoredAnalysis>(`${base}/api/analyses/${encodeURIComponent(id)}`);
}

/** The newest stored analysis of a SHA-256 (the `#/petriage/history/<sha256>` link a sent finding carries), or null. */
export async function fetchNewestOf(client: ApiClient, base: string, sha256: string): Promise<StoredAnalysis | null> {
  const p = await client.get<StoredAnalysisPage>(`${base}/api/analyses`, { query: { sha256: sha256.toLowerCase(), limit: 1 } });
  const first = p.items[0];
  return first ? fetchStored(client, base, first.id) : null;
}
