// The Lineage workspace's state as one zustand store: runs, the open run (graph, decision, comment), what is selected and highlighted, and the calls that fill them.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BacktrackBody, GateSummary, LayerBlast, ProvgateHealth, Reason, RunDetail, RunGraph, RunPage, ScenarioName } from '../../../../engines/core/contracts/provgate';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { downstream, orderedReasons, pathHighlight, type Highlight } from './model';

export const RUN_PAGE = 50;

export type Busy = { readonly what: 'demo'; readonly scenario: ScenarioName } | { readonly what: 'gate'; readonly name: string };

/** What the side panel explains: a reason's origin story, a node (a layer's blast radius among them), or a typed backtrack query. */
export type Focus =
  | { readonly kind: 'reason'; readonly index: number; readonly reason: Reason }
  | { readonly kind: 'node'; readonly id: string }
  | { readonly kind: 'query'; readonly query: string };

export interface LineageState {
  /** The service's health: how many keys it trusts (none: POST /v1/gate answers 503), and why a configured key was refused. */
  readonly health: ProvgateHealth | null;
  readonly runs: RunPage | null;
  readonly runsError: ApiError | null;
  readonly offset: number;
  readonly runId: string | null;
  readonly graph: RunGraph | null;
  readonly detail: RunDetail | null;
  readonly runError: ApiError | null;
  readonly busy: Busy | null;
  /** The last gate or demo call's failure, or a refusal before anything was sent. */
  readonly submitError: ApiError | null;
  readonly localError: string | null;
  /** The last demo's expected verdict, when it was a demo. */
  readonly last: GateSummary | null;
  readonly focus: Focus | null;
  readonly highlight: Highlight | null;
  readonly stories: BacktrackBody | null;
  readonly storiesError: ApiError | null;
  readonly blast: LayerBlast | null;
  readonly blastError: ApiError | null;
}

export interface LineageActions {
  loadHealth(): Promise<void>;
  loadRuns(offset?: number): Promise<void>;
  openRun(runId: string): Promise<void>;
  runDemo(scenario: ScenarioName): Promise<void>;
  gate(envelopes: unknown[], name: string, options: GateOptions): Promise<void>;
  refuse(message: string): void;
  selectReason(index: number): Promise<void>;
  selectNode(id: string): Promise<void>;
  backtrack(query: string): Promise<void>;
  clearFocus(): void;
}

/** How POST /v1/gate runs: malformed entries as blocking reasons; PyPI names checked against the popular-package list. */
export interface GateOptions {
  readonly lenient: boolean;
  readonly typosquat: boolean;
}

export type LineageStore = StoreApi<LineageState & LineageActions>;

const EMPTY_FOCUS = { focus: null, highlight: null, stories: null, storiesError: null, blast: null, blastError: null } as const;

export function createLineageStore(client: ApiClient, base: string): LineageStore {
  const url = (p: string): string => `${base}${p}`;
  // Answers to an older request must not overwrite a newer one (a slow graph after a quick click elsewhere).
  let runSeq = 0;
  let focusSeq = 0;

  return createStore<LineageState & LineageActions>()((set, get) => {
    const backtrackInto = async (runId: string, query: string, seq: number): Promise<void> => {
      try {
        const stories = await client.get<BacktrackBody>(url(`/v1/runs/${encodeURIComponent(runId)}/backtrack`), { query: { q: query } });
        if (seq !== focusSeq) return;
        const graph = get().graph;
        const first = stories.stories[0];
        // A typed query has no path of its own: the first story's path is drawn.
        const highlight = get().highlight ?? (first && graph ? pathHighlight(first.pathIds, graph.edges) : null);
        set({ stories, storiesError: null, highlight });
      } catch (err) {
        if (seq === focusSeq) set({ storiesError: asApiError(err), stories: null });
      }
    };

    const shown = async (summary: GateSummary): Promise<void> => {
      set({ last: summary });
      await Promise.all([get().loadRuns(0), get().openRun(summary.runId)]);
    };

    return {
      health: null,
      runs: null,
      runsError: null,
      offset: 0,
      runId: null,
      graph: null,
      detail: null,
      runError: null,
      busy: null,
      submitError: null,
      localError: null,
      last: null,
      ...EMPTY_FOCUS,

      async loadHealth() {
        try {
          set({ health: await client.get<ProvgateHealth>(url('/healthz')) });
        } catch {
          // Only a hint for the Gate panel: the gate call itself reports any problem.
          set({ health: null });
        }
      },

      async loadRuns(offset = get().offset) {
        try {
          const runs = await client.get<RunPage>(url('/v1/runs'), { query: { limit: RUN_PAGE, offset } });
          set({ runs, offset, runsError: null });
        } catch (err) {
          set({ runsError: asApiError(err) });
        }
      },

      async openRun(runId) {
        const seq = ++runSeq;
        focusSeq++;
        set({ runId, runError: null, ...EMPTY_FOCUS });
        try {
          const id = encodeURIComponent(runId);
          const [graph, detail] = await Promise.all([client.get<RunGraph>(url(`/v1/runs/${id}/graph`)), client.get<RunDetail>(url(`/v1/runs/${id}`))]);
          if (seq !== runSeq) return;
          set({ graph, detail });
          // The first blocking (else first) reason is what an analyst reads first: open it.
          const first = orderedReasons(graph.decision)[0];
          if (first !== undefined) await get().selectReason(graph.decision.reasons.indexOf(first));
        } catch (err) {
          if (seq === runSeq) set({ runError: asApiError(err), graph: null, detail: null });
        }
      },

      async runDemo(scenario) {
        if (get().busy) return;
        set({ busy: { what: 'demo', scenario }, submitError: null, localError: null });
        try {
          await shown(await client.post<GateSummary>(url(`/v1/demo/${encodeURIComponent(scenario)}`), undefined));
        } catch (err) {
          set({ submitError: asApiError(err) });
        } finally {
          set({ busy: null });
        }
      },

      async gate(envelopes, name, { lenient, typosquat }) {
        if (get().busy) return;
        set({ busy: { what: 'gate', name }, submitError: null, localError: null });
        try {
          await shown(await client.post<GateSummary>(url('/v1/gate'), envelopes, { query: { ...(lenient ? { lenient: 'true' } : {}), ...(typosquat ? { typosquat: 'true' } : {}) } }));
        } catch (err) {
          set({ submitError: asApiError(err) });
        } finally {
          set({ busy: null });
        }
      },

      refuse(message) {
        set({ localError: message, submitError: null });
      },

      async selectReason(index) {
        const { graph, runId } = get();
        const ordered = graph?.decision.reasons ?? [];
        const reason = ordered[index];
        if (!graph || !runId || !reason) return;
        const seq = ++focusSeq;
        set({ ...EMPTY_FOCUS, focus: { kind: 'reason', index, reason }, highlight: reason.pathIds.length > 0 ? pathHighlight(reason.pathIds, graph.edges) : null });
        // Reasons about a finding have an origin story (the commit, PR and author that brought it, and its blast radius).
        if (reason.finding !== undefined) await backtrackInto(runId, reason.finding, seq);
      },

      async selectNode(id) {
        const { graph, runId } = get();
        const node = graph?.nodes.find((n) => n.id === id);
        if (!graph || !runId || !node) return;
        const seq = ++focusSeq;
        if (node.kind === 'layer') {
          set({ ...EMPTY_FOCUS, focus: { kind: 'node', id }, highlight: { kind: 'blast', layerIds: [id], reached: downstream([id], graph.edges) } });
          try {
            const blast = await client.get<LayerBlast>(url(`/v1/runs/${encodeURIComponent(runId)}/blast`), { query: { layer: String(node.attrs['digest'] ?? node.label) } });
            if (seq !== focusSeq) return;
            const reached = new Set(Object.values(blast.ids).flat());
            const layerIds = graph.nodes.filter((n) => n.kind === 'layer' && blast.layers.includes(String(n.attrs['digest']))).map((n) => n.id);
            set({ blast, blastError: null, highlight: { kind: 'blast', layerIds: layerIds.length > 0 ? layerIds : [id], reached } });
          } catch (err) {
            if (seq === focusSeq) set({ blastError: asApiError(err) });
          }
          return;
        }
        const finding = graph.findings.find((f) => f.nodeId === id);
        set({ ...EMPTY_FOCUS, focus: { kind: 'node', id }, highlight: { kind: 'node', id } });
        // A node with a finding is backtracked by that finding's id: its path replaces the plain node highlight.
        if (finding) {
          set({ highlight: null });
          await backtrackInto(runId, finding.id, seq);
          if (seq === focusSeq && get().highlight === null) set({ highlight: { kind: 'node', id } });
        }
      },

      async backtrack(query) {
        const { runId } = get();
        const q = query.trim();
        if (!runId || q === '') return;
        const seq = ++focusSeq;
        set({ ...EMPTY_FOCUS, focus: { kind: 'query', query: q } });
        await backtrackInto(runId, q, seq);
      },

      clearFocus() {
        focusSeq++;
        set({ ...EMPTY_FOCUS });
      },
    };
  });
}
