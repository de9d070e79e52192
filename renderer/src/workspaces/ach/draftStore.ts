// The hand-built matrix outlives the workspace's components: switching workspace, unmounting the Matrix view or reloading
// the page gives the same rows, columns, ratings and last ranking back (kept in localStorage, one key).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AchAssessment } from '../../../../engines/core/contracts/ach';
import { emptyDraft, type Draft } from './draft';

export const DRAFT_KEY = 'vitrine.ach.draft';

export interface DraftState {
  readonly draft: Draft;
  /** The server's last ranking of the draft and the revision it was computed at (stale when the draft moved on). */
  readonly run: { readonly assessment: AchAssessment; readonly revision: number } | null;
  /** Whether the Matrix view shows the hand-built matrix (rather than a scenario or a stored matrix). */
  readonly shown: boolean;
  set(draft: Draft): void;
  setRun(run: DraftState['run']): void;
  show(shown: boolean): void;
  /** A new empty matrix (the old one is dropped). */
  reset(): void;
}

type Persist = Pick<Storage, 'getItem' | 'setItem'>;

function storageOrNull(): Persist | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isDraft(v: unknown): v is Draft {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d['title'] === 'string' && typeof d['question'] === 'string' && Array.isArray(d['hypotheses']) && Array.isArray(d['evidence']) && typeof d['ratings'] === 'object' && d['ratings'] !== null && typeof d['revision'] === 'number';
}

function read(storage: Persist | null): Pick<DraftState, 'draft' | 'run' | 'shown'> {
  const fresh = { draft: emptyDraft(), run: null, shown: false };
  const raw = storage?.getItem(DRAFT_KEY);
  if (!raw) return fresh;
  try {
    const v = JSON.parse(raw) as { draft?: unknown; run?: DraftState['run']; shown?: unknown };
    if (!isDraft(v.draft)) return fresh;
    return { draft: v.draft, run: v.run ?? null, shown: v.shown === true };
  } catch {
    return fresh;
  }
}

export function createDraftStore(storage: Persist | null = storageOrNull()): StoreApi<DraftState> {
  const store = createStore<DraftState>()((set) => ({
    ...read(storage),
    set: (draft) => set({ draft }),
    setRun: (run) => set({ run }),
    show: (shown) => set({ shown }),
    reset: () => set({ draft: emptyDraft(), run: null, shown: true }),
  }));
  store.subscribe((s) => {
    try {
      storage?.setItem(DRAFT_KEY, JSON.stringify({ draft: s.draft, run: s.run, shown: s.shown }));
    } catch {
      // A full or refused storage loses the copy across reloads only; the matrix stays while the page is open.
    }
  });
  return store;
}

/** The page's one hand-built matrix. */
export const draftStore = createDraftStore();
