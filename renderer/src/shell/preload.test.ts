// The first workspace's chunk is requested before the shell renders it: the remembered one at once, the one the
// health answer's services make first as soon as that answers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import { workspaceFor } from '../workspaces/registry';
import { preloadFirstWorkspace } from './preload';

const svc = (name: string) => ({ name, title: name, workspace: name, base: `/svc/${name}` });

/** A client whose health answer is `health` (or a failure); other calls are not expected. */
function client(health: unknown): ApiClient {
  return { get: (p: string) => (p === '/api/health' ? (health instanceof Error ? Promise.reject(health) : Promise.resolve(health)) : Promise.reject(new Error(p))) } as unknown as ApiClient;
}

function spyOn(service: string) {
  const screens = workspaceFor(service)?.component;
  if (screens === undefined) throw new Error(`no screens for ${service}`);
  return vi.spyOn(screens, 'preload').mockImplementation(() => undefined);
}

afterEach(() => vi.restoreAllMocks());

describe('preloadFirstWorkspace', () => {
  it('preloads the first mounted service when nothing was chosen before', async () => {
    const assessment = spyOn('caseassess');
    const packages = spyOn('pkgscan');
    preloadFirstWorkspace(client({ status: 'ok', services: [svc('caseassess'), svc('pkgscan')] }), null);
    await vi.waitFor(() => expect(assessment).toHaveBeenCalledTimes(1));
    expect(packages).not.toHaveBeenCalled();
  });

  it('preloads the remembered workspace at once, and again (a no-op fetch) when health confirms it', async () => {
    const replay = spyOn('replay');
    const assessment = spyOn('caseassess');
    preloadFirstWorkspace(client({ status: 'ok', services: [svc('caseassess'), svc('replay')] }), 'replay');
    expect(replay).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(replay).toHaveBeenCalledTimes(2));
    expect(assessment).not.toHaveBeenCalled();
  });

  it('falls back to the first service when the remembered one is not mounted, and survives a failed or odd health answer', async () => {
    const flows = spyOn('flowdet');
    preloadFirstWorkspace(client({ status: 'ok', services: [svc('flowdet')] }), 'replay');
    await vi.waitFor(() => expect(flows).toHaveBeenCalledTimes(1));
    const lineage = spyOn('provgate');
    preloadFirstWorkspace(client(new Error('down')), null);
    preloadFirstWorkspace(client({ status: 'ok' }), null);
    preloadFirstWorkspace(undefined, 'provgate');
    await new Promise((r) => setTimeout(r, 10));
    expect(lineage).toHaveBeenCalledTimes(1);
  });
});
