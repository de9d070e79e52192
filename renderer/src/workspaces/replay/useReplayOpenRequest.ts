// Replay's part of "open this item" (the search box, item links in the address): a story (its analysis picked with
// it, the Story tab shown), an analysis (picked, the Overview tab shown), an alert rule in an analysis (the Alerts tab
// filtered to that rule).
import { useCallback } from 'react';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { NO_ALERT_FILTERS } from './browse';
import type { ReplayTab, TabRequest } from './ReplayTabs';

export type ReplayOpen = { readonly story: string } | { readonly analysis: string; readonly tab: ReplayTab; readonly request?: Omit<TabRequest, 'serial'> };

/** What a request asks of Replay; null for a kind it does not handle. */
export function replayOpenOf(r: Pick<OpenRequest, 'kind' | 'id' | 'parent'>): ReplayOpen | null {
  if (r.kind === 'story') return { story: r.id };
  if (r.kind === 'analysis') return { analysis: r.id, tab: 'overview' };
  if (r.kind === 'alert' && r.parent !== undefined) return { analysis: r.parent, tab: 'alerts', request: { tab: 'alerts', alerts: { ...NO_ALERT_FILTERS, rule: r.id } } };
  return null;
}

export interface ReplayOpenDeps {
  readonly service: string;
  readonly openStory: (id: string) => Promise<void>;
  readonly pick: (analysisId: string, tab: ReplayTab, request?: Omit<TabRequest, 'serial'>) => void;
}

export function useReplayOpenRequest({ service, openStory, pick }: ReplayOpenDeps): void {
  useOpenRequest(
    service,
    useCallback(
      (r: OpenRequest) => {
        const o = replayOpenOf(r);
        if (o === null) return;
        if ('story' in o) void openStory(o.story);
        else pick(o.analysis, o.tab, o.request);
      },
      [openStory, pick],
    ),
  );
}
