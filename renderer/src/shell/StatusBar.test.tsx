// @vitest-environment jsdom
// The status bar's workers line: busy of all, then workers still starting and queued jobs apart, each only when any.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayHealth } from '../../../engines/core/contracts/gateway';
import { createShellStore } from '../store';
import { ShellContext } from './context';
import { StatusBar } from './StatusBar';

afterEach(cleanup);

function health(workers: GatewayHealth['workers']): GatewayHealth {
  return { status: 'ok', version: '0.1.0', uptime_s: 3, services: [], workers };
}

function statusLine(workers: GatewayHealth['workers']): string {
  const store = createShellStore();
  render(
    <ShellContext.Provider value={{ store, client: null, retry: () => undefined }}>
      <StatusBar />
    </ShellContext.Provider>,
  );
  act(() => {
    store.getState().setHealth(health(workers));
    store.getState().setConnection('online');
  });
  return screen.getByTestId('gateway-health').textContent ?? '';
}

describe('StatusBar workers', () => {
  it('tells workers still starting apart from free ones while a job waits for them', () => {
    expect(statusLine({ size: 2, busy: 0, queued: 1, starting: 1 })).toContain('workers 0/2 busy · 1 starting · 1 queued');
  });

  it('says only what there is: no starting or queued part when there are none', () => {
    const line = statusLine({ size: 2, busy: 1, queued: 0, starting: 0 });
    expect(line).toContain('workers 1/2 busy');
    expect(line).not.toMatch(/starting|queued/);
  });

  it('reads an answer without the starting count as none starting', () => {
    const line = statusLine({ size: 3, busy: 3, queued: 2 });
    expect(line).toContain('workers 3/3 busy · 2 queued');
    expect(line).not.toContain('starting');
  });
});
