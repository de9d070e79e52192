// @vitest-environment jsdom
// The Lineage gate's note about trusted keys: none yet (where every workstation starts) is said calmly; a configured key that cannot be used is an error.
// Its bar while a demo scenario waits in the job queue is striped, not an empty bar that reads as nothing happening.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../../engines/core/contracts/gateway';
import type { ApiClient } from '../../api/client';
import type { ProvgateHealth } from '../../../../engines/core/contracts/provgate';
import { ShellContext } from '../../shell/context';
import { createShellStore } from '../../store';
import LineageWorkspace from './LineageWorkspace';

configure({ asyncUtilTimeout: 10_000 });
afterEach(cleanup);

const service = { name: 'provgate', title: 'Provenance gate', workspace: 'Lineage', base: '/svc/provgate' };

/** The workspace inside the shell it expects (its store and client); returns the store. */
function show(health: ProvgateHealth): ReturnType<typeof createShellStore> {
  const api = client(health);
  const store = createShellStore();
  render(
    <ShellContext.Provider value={{ store, client: api, retry: () => undefined }}>
      <LineageWorkspace service={service} client={api} />
    </ShellContext.Provider>,
  );
  return store;
}

function client(health: ProvgateHealth): ApiClient {
  const answer = <T,>(path: string): Promise<T> => {
    if (path.endsWith('/healthz')) return Promise.resolve(health as T);
    if (path.endsWith('/v1/runs')) return Promise.resolve({ items: [], total: 0 } as T);
    if (path.endsWith('/v1/keys')) return Promise.resolve({ items: [], trusted: health.trustedKeys, ...(health.trustProblem ? { trustProblem: health.trustProblem } : {}) } as T);
    return Promise.reject(new Error('not served here'));
  };
  return {
    apiBase: 'http://127.0.0.1:1',
    get: answer,
    // A demo never answers here, so the workspace stays in its running state.
    post: () => new Promise<never>(() => undefined),
    put: () => Promise.reject(new Error('not served here')),
    patch: () => Promise.reject(new Error('not served here')),
    delete: () => Promise.reject(new Error('not served here')),
    open: () => Promise.reject(new Error('not served here')),
    upload: () => Promise.reject(new Error('not served here')),
  };
}

describe('Lineage gate: the trusted-key note', () => {
  it('says calmly that no key is trusted yet, and how to add one', async () => {
    show({ status: 'ok', service: 'provgate', version: '0', trustedKeys: 0 });
    const note = await screen.findByTestId('trust-warning');
    expect(note.textContent).toContain('import or generate one under Trusted keys');
    expect(note.className).toContain('muted');
    expect(note.className).not.toContain('neg');
  });

  it('is an error when the configured key cannot be used', async () => {
    show({ status: 'ok', service: 'provgate', version: '0', trustedKeys: 0, trustProblem: 'GATE_PUBKEY is not an Ed25519 public key' });
    const note = await screen.findByTestId('trust-warning');
    expect(note.textContent).toContain('(GATE_PUBKEY is not an Ed25519 public key)');
    expect(note.className).toContain('neg');
  });
});

describe('Lineage gate: the bar while a demo scenario runs', () => {
  it('is striped (no value) while the job waits in the queue', async () => {
    const store = show({ status: 'ok', service: 'provgate', version: '0', trustedKeys: 0 });
    const queued: JobInfo = { id: 'j1', service: 'provgate', type: 'provgate.demo', state: 'queued', fraction: 0, started_at: '2026-12-02T11:00:00.000Z' };
    store.getState().setJobs([queued]);
    fireEvent.click(document.querySelector('[data-scenario="cve-origin"]')!);
    const bar = (await screen.findByTestId('gate-progress')).querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuenow')).toBeNull();
    expect(bar.className).toContain('progress--unknown');
  });
});

describe('Lineage gate: its options', () => {
  it('sit together on a line of their own under the button, each box in a label that centres it on its words', async () => {
    show({ status: 'ok', service: 'provgate', version: '0', trustedKeys: 0 });
    const group = await screen.findByRole('group', { name: 'Gate options' });
    const boxes = Array.from(group.querySelectorAll('input[type="checkbox"]'));
    expect(boxes).toEqual([screen.getByRole('checkbox', { name: 'lenient' }), screen.getByRole('checkbox', { name: 'typosquat check' })]);
    for (const box of boxes) expect(box.parentElement?.className).toContain('gate-input__option');
    // Not in the button's wrapping row, where the second option started an indented line of its own.
    expect(group.contains(screen.getByTestId('open-envelopes'))).toBe(false);
  });
});
