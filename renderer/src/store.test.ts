// @vitest-environment jsdom
// The shell store: workspace choice against mounted services, jobs (upsert, prune), theme persistence, connection errors.
import { describe, expect, it } from 'vitest';
import type { JobInfo, ServiceInfo } from '../../engines/core/contracts/gateway';
import { ApiError } from './api/client';
import { FINISHED_JOBS_KEPT, THEME_KEY, WORKSPACE_KEY, activeJobs, createShellStore, effectiveTheme, lastFinishedJob } from './store';

const svc = (name: string, workspace: string): ServiceInfo => ({ name, title: name, workspace, base: `/svc/${name}` });
const job = (id: string, state: JobInfo['state'], started: string, fraction = 0): JobInfo => ({ id, service: 'caseassess', type: 'caseassess.assess', state, fraction, started_at: started });

function memory(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return { map: m, storage: { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } };
}

describe('workspaces', () => {
  it('falls back to the first mounted service and keeps a remembered one while it is mounted', () => {
    const { storage, map } = memory({ [WORKSPACE_KEY]: 'caseassess' });
    const store = createShellStore(storage);
    store.getState().setServices([svc('pkgscan', 'Packages'), svc('caseassess', 'Assessment')]);
    expect(store.getState().active).toBe('caseassess');
    store.getState().setServices([svc('pkgscan', 'Packages')]);
    expect(store.getState().active).toBe('pkgscan');
    store.getState().setServices([]);
    expect(store.getState().active).toBeNull();
    store.getState().setServices([svc('caseassess', 'Assessment'), svc('replay', 'Replay')]);
    store.getState().select('replay');
    expect(store.getState().active).toBe('replay');
    expect(map.get(WORKSPACE_KEY)).toBe('replay');
  });

  it('refuses to select a service that is not mounted', () => {
    const store = createShellStore();
    store.getState().setServices([svc('caseassess', 'Assessment')]);
    store.getState().select('flowdet');
    expect(store.getState().active).toBe('caseassess');
  });
});

describe('jobs', () => {
  it('upserts by id and lists active jobs oldest first', () => {
    const store = createShellStore();
    store.getState().setJobs([job('b', 'running', '2025-01-01T00:00:02Z', 0.2), job('a', 'queued', '2025-01-01T00:00:01Z')]);
    store.getState().upsertJob(job('b', 'running', '2025-01-01T00:00:02Z', 0.7));
    store.getState().upsertJob(job('c', 'succeeded', '2025-01-01T00:00:03Z', 1));
    const active = activeJobs(store.getState().jobs);
    expect(active.map((j) => j.id)).toEqual(['a', 'b']);
    expect(active[1]?.fraction).toBe(0.7);
    expect(lastFinishedJob(store.getState().jobs)?.id).toBe('c');
    store.getState().upsertJob({ ...job('a', 'cancelled', '2025-01-01T00:00:01Z'), finished_at: '2025-01-01T00:00:09Z' });
    expect(activeJobs(store.getState().jobs).map((j) => j.id)).toEqual(['b']);
    expect(lastFinishedJob(store.getState().jobs)?.id).toBe('a');
  });

  it('keeps every active job but only the most recent finished ones', () => {
    const store = createShellStore();
    store.getState().upsertJob(job('live', 'running', '2020-01-01T00:00:00Z'));
    for (let i = 0; i < FINISHED_JOBS_KEPT + 5; i++) store.getState().upsertJob(job(`done-${String(i).padStart(2, '0')}`, 'succeeded', `2025-01-01T00:00:${String(i).padStart(2, '0')}Z`, 1));
    const ids = Object.keys(store.getState().jobs);
    expect(ids).toContain('live');
    expect(ids).toHaveLength(FINISHED_JOBS_KEPT + 1);
    expect(ids).not.toContain('done-00');
    expect(ids).toContain(`done-${FINISHED_JOBS_KEPT + 4}`);
  });
});

describe('theme', () => {
  it('reads and persists the preference; system follows prefers-color-scheme', () => {
    const { storage, map } = memory({ [THEME_KEY]: 'dark' });
    const store = createShellStore(storage);
    expect(store.getState().theme).toBe('dark');
    store.getState().setTheme('system');
    expect(map.get(THEME_KEY)).toBe('system');
    expect(effectiveTheme('system', true)).toBe('dark');
    expect(effectiveTheme('system', false)).toBe('light');
    expect(effectiveTheme('light', true)).toBe('light');
  });

  it('ignores a stored value it does not know', () => {
    expect(createShellStore(memory({ [THEME_KEY]: 'neon' }).storage).getState().theme).toBe('system');
  });

  it('cycles so that the first press always changes what is shown', () => {
    const store = createShellStore();
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      store.getState().cycleTheme(true);
      seen.push(store.getState().theme);
    }
    expect(seen).toEqual(['light', 'dark', 'system']);
    store.getState().cycleTheme(false);
    expect(store.getState().theme).toBe('dark');
  });

  it('works with the real localStorage', () => {
    window.localStorage.clear();
    createShellStore(window.localStorage).getState().setTheme('light');
    expect(createShellStore(window.localStorage).getState().theme).toBe('light');
  });
});

describe('connection', () => {
  it('keeps the last error until back online', () => {
    const store = createShellStore();
    store.getState().setConnection('failed', new ApiError(500, 'internal', 'boom', 'req-00000001'));
    expect(store.getState().lastError).toEqual({ code: 'internal', message: 'boom', requestId: 'req-00000001' });
    store.getState().setConnection('unreachable');
    expect(store.getState().lastError?.code).toBe('internal');
    store.getState().setConnection('online');
    expect(store.getState().lastError).toBeNull();
  });

  it('opens and closes overlays', () => {
    const store = createShellStore();
    store.getState().openOverlay('help');
    expect(store.getState().overlay).toBe('help');
    store.getState().closeOverlay();
    expect(store.getState().overlay).toBeNull();
  });
});
