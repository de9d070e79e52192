// The shell's state (connection, services, jobs, active workspace, theme, overlays) as one zustand store.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { GatewayHealth, JobInfo, ServiceInfo } from '../../engines/core/contracts/gateway';
import type { ApiError } from './api/client';
import { isStandaloneWorkspace } from './workspaces/registry';

/**
 * unauthorized: the gateway refused the token (401); unreachable: no answer at all;
 * failed: the gateway answered with an error; online: health and services answered.
 */
export type Connection = 'connecting' | 'online' | 'unreachable' | 'unauthorized' | 'failed';
export type ThemePreference = 'system' | 'light' | 'dark';
export type Overlay = 'help' | 'settings' | null;

export const THEME_KEY = 'vitrine.theme';
export const WORKSPACE_KEY = 'vitrine.workspace';
/** Finished jobs kept for the status bar's recent list. */
export const FINISHED_JOBS_KEPT = 20;

export interface ShellState {
  readonly connection: Connection;
  readonly health: GatewayHealth | null;
  /** Last error of a shell call (health, services, events), for the error screens. */
  readonly lastError: { readonly code: string; readonly message: string; readonly requestId?: string } | null;
  readonly services: readonly ServiceInfo[];
  readonly jobs: Readonly<Record<string, JobInfo>>;
  /** Service name of the shown workspace. */
  readonly active: string | null;
  readonly overlay: Overlay;
  readonly theme: ThemePreference;

  setConnection(c: Connection, error?: ApiError | null): void;
  setHealth(h: GatewayHealth): void;
  setServices(list: readonly ServiceInfo[]): void;
  upsertJob(job: JobInfo): void;
  setJobs(list: readonly JobInfo[]): void;
  select(service: string): void;
  openOverlay(o: Exclude<Overlay, null>): void;
  closeOverlay(): void;
  setTheme(t: ThemePreference): void;
  /** system -> the opposite of what the system shows -> the other -> system. */
  cycleTheme(systemPrefersDark: boolean): void;
}

type Persist = Pick<Storage, 'getItem' | 'setItem'>;

const memoryStorage = (): Persist => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
};

function readTheme(storage: Persist): ThemePreference {
  const v = storage.getItem(THEME_KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

const isActive = (j: JobInfo): boolean => j.state === 'queued' || j.state === 'running';

/** The workspace shown for these services: the chosen one while its service is mounted (or it is standalone), else the first. */
export function workspaceToShow(chosen: string | null, services: readonly ServiceInfo[]): string | null {
  return chosen !== null && (services.some((s) => s.name === chosen) || isStandaloneWorkspace(chosen)) ? chosen : (services[0]?.name ?? null);
}

/** Keeps every active job and the most recent finished ones, so a long session does not grow without bound. */
function pruneJobs(jobs: Record<string, JobInfo>): Record<string, JobInfo> {
  const finished = Object.values(jobs).filter((j) => !isActive(j));
  if (finished.length <= FINISHED_JOBS_KEPT) return jobs;
  finished.sort((a, b) => (b.finished_at ?? b.started_at).localeCompare(a.finished_at ?? a.started_at));
  const drop = new Set(finished.slice(FINISHED_JOBS_KEPT).map((j) => j.id));
  return Object.fromEntries(Object.entries(jobs).filter(([id]) => !drop.has(id)));
}

export function createShellStore(storage: Persist = memoryStorage()): StoreApi<ShellState> {
  return createStore<ShellState>()((set, get) => ({
    connection: 'connecting',
    health: null,
    lastError: null,
    services: [],
    jobs: {},
    active: storage.getItem(WORKSPACE_KEY),
    overlay: null,
    theme: readTheme(storage),

    setConnection(connection, error) {
      const lastError = error
        ? { code: error.code, message: error.message, ...(error.requestId !== undefined ? { requestId: error.requestId } : {}) }
        : connection === 'online'
          ? null
          : get().lastError;
      set({ connection, lastError });
    },
    setHealth(health) {
      set({ health });
    },
    setServices(list) {
      const services = [...list];
      set({ services, active: workspaceToShow(get().active, services) });
    },
    upsertJob(job) {
      set({ jobs: pruneJobs({ ...get().jobs, [job.id]: job }) });
    },
    setJobs(list) {
      set({ jobs: pruneJobs(Object.fromEntries(list.map((j) => [j.id, j]))) });
    },
    select(service) {
      if (!get().services.some((s) => s.name === service) && !isStandaloneWorkspace(service)) return;
      storage.setItem(WORKSPACE_KEY, service);
      set({ active: service });
    },
    openOverlay(overlay) {
      set({ overlay });
    },
    closeOverlay() {
      set({ overlay: null });
    },
    setTheme(theme) {
      storage.setItem(THEME_KEY, theme);
      set({ theme });
    },
    cycleTheme(systemPrefersDark) {
      const t = get().theme;
      const opposite = systemPrefersDark ? 'light' : 'dark';
      const next: ThemePreference = t === 'system' ? opposite : t === opposite ? (opposite === 'light' ? 'dark' : 'light') : 'system';
      get().setTheme(next);
    },
  }));
}

/** Jobs still queued or running, oldest first. */
export function activeJobs(jobs: Readonly<Record<string, JobInfo>>): JobInfo[] {
  return Object.values(jobs)
    .filter(isActive)
    .sort((a, b) => a.started_at.localeCompare(b.started_at));
}

export function effectiveTheme(pref: ThemePreference, systemPrefersDark: boolean): 'light' | 'dark' {
  return pref === 'system' ? (systemPrefersDark ? 'dark' : 'light') : pref;
}

/** The job that finished most recently, so a quick job's outcome is visible after its bar has gone. */
export function lastFinishedJob(jobs: Readonly<Record<string, JobInfo>>): JobInfo | undefined {
  let last: JobInfo | undefined;
  for (const j of Object.values(jobs)) {
    if (isActive(j)) continue;
    if (!last || (j.finished_at ?? j.started_at) > (last.finished_at ?? last.started_at)) last = j;
  }
  return last;
}
