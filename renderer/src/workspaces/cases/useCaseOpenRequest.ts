// Cases' part of "open this item" (the search box, item links in the address): a case, a story in a case, an event
// in a case. The case opens (kept when it is already the open one), then the story is selected or the timeline
// scrolls to the event and highlights it.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import type { TimelineFocus } from './Timeline';
import type { CaseSummary, Story } from './types';

/** What to select once the case is open. */
export type CaseTarget = { readonly story: string } | { readonly event: string } | null;

/** The case a request names and what to select in it; null for a request Cases does not handle. */
export function caseTargetOf(r: Pick<OpenRequest, 'kind' | 'id' | 'parent'>): { readonly caseId: string; readonly target: CaseTarget } | null {
  if (r.kind === 'case') return { caseId: r.id, target: null };
  if (r.parent === undefined) return null;
  if (r.kind === 'story') return { caseId: r.parent, target: { story: r.id } };
  if (r.kind === 'event') return { caseId: r.parent, target: { event: r.id } };
  return null;
}

export interface CaseTargets {
  /** An event asked for, for the Timeline (`serial` repeats a request for the same event). */
  readonly focus: TimelineFocus | null;
  /** Applies `target` to a case whose stories are `stories`: the story it names, or after focusing its event undefined. */
  readonly apply: (stories: readonly Story[], target: CaseTarget) => Story | undefined;
}

/** The selection an open request asks for; `clearFilters` makes every event visible before one is focused. */
export function useCaseTargets(clearFilters: () => void): CaseTargets {
  const [focus, setFocus] = useState<TimelineFocus | null>(null);
  const apply = useCallback(
    (stories: readonly Story[], target: CaseTarget): Story | undefined => {
      if (target === null) return undefined;
      if ('story' in target) return stories.find((s) => s.id === target.story);
      clearFilters();
      setFocus((f) => ({ eventId: target.event, serial: (f?.serial ?? 0) + 1 }));
      return undefined;
    },
    [clearFilters],
  );
  return useMemo(() => ({ focus, apply }), [focus, apply]);
}

export interface CaseOpenDeps {
  readonly service: string;
  readonly client: ApiClient;
  readonly base: string;
  /** The id of the case open now, if any. */
  readonly openId: string | null;
  /** Opens a case (its node count decides whether the whole graph comes), then selects `target` in it. */
  readonly openCase: (id: string, nodes: number | undefined, target: CaseTarget) => Promise<void>;
  /** Selects `target` in the case already open. */
  readonly select: (target: CaseTarget) => void;
}

export function useCaseOpenRequest(deps: CaseOpenDeps): void {
  // The latest callbacks, so the subscription does not change with every render of the workspace.
  const latest = useRef(deps);
  latest.current = deps;
  const { service, client, base } = deps;
  useOpenRequest(
    service,
    useCallback(
      (r: OpenRequest) => {
        const t = caseTargetOf(r);
        if (t === null) return;
        if (latest.current.openId === t.caseId) {
          latest.current.select(t.target);
          return;
        }
        void (async () => {
          let nodes: number | undefined;
          try {
            nodes = (await client.get<CaseSummary>(`${base}/api/cases/${encodeURIComponent(t.caseId)}`, { query: { max_events: 0 } })).counts?.nodes;
          } catch {
            // openCase reports what is wrong with the case (not found, failed); the count only sizes the graph.
          }
          await latest.current.openCase(t.caseId, nodes, t.target);
        })();
      },
      [client, base],
    ),
  );
}
