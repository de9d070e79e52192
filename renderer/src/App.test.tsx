// @vitest-environment jsdom
// The shell end to end in jsdom with a fake gateway: token gate, pasting a token, the sidebar from /api/services, 401 and unreachable screens.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { TOKEN_KEY, browserTokenEnvironment } from './api/token';
import { createShellStore } from './store';

// Waits end as soon as the condition holds; the ceiling only matters on a loaded machine.
configure({ asyncUtilTimeout: 10_000 });

const TOKEN = 'f'.repeat(32);
const health = { status: 'ok', version: '0.1.0', uptime_s: 1, services: [], workers: { size: 2, busy: 0, queued: 0 } };
const services = [{ name: 'caseassess', title: 'Case assessment', workspace: 'Assessment', base: '/svc/caseassess' }];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake gateway: answers by path; records the Authorization headers it saw. */
function gateway(opts: { acceptToken?: string; down?: boolean } = {}) {
  const seen: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (opts.down) throw new TypeError('Failed to fetch');
    const url = new URL(String(input));
    const auth = (init?.headers as Record<string, string> | undefined)?.['Authorization'] ?? '';
    seen.push(auth);
    if (url.pathname === '/api/health') return json(200, health);
    if (auth !== `Bearer ${opts.acceptToken ?? TOKEN}`) return json(401, { error: { code: 'unauthorized', message: 'missing or invalid token', request_id: 'req-00000001' } });
    if (url.pathname === '/api/services') return json(200, services);
    if (url.pathname === '/api/jobs') return json(200, []);
    if (url.pathname === '/api/events') return new Response(new ReadableStream({ start() {} }), { status: 200 });
    if (url.pathname === '/svc/caseassess/assessments') return json(200, { items: [], total: 0, limit: 15, offset: 0 });
    return json(404, { error: { code: 'not_found', message: 'not found', request_id: 'req-00000002' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, seen };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('App', () => {
  it('without a token shows how to get one, then accepts the printed address', async () => {
    gateway();
    render(<App store={createShellStore()} initialBridge={undefined} tokenEnv={browserTokenEnvironment()} />);
    expect(screen.getByTestId('token-help').textContent).toContain('vitrine serve');
    const input = screen.getByLabelText('Address or token');
    fireEvent.change(input, { target: { value: 'not a token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use token' }));
    expect(screen.getByRole('alert').textContent).toContain('neither a token');
    fireEvent.change(input, { target: { value: `http://127.0.0.1:4100/#token=${TOKEN}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Use token' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Assessment/ })).toBeTruthy(), { timeout: 10_000 });
    expect(window.sessionStorage.getItem(TOKEN_KEY)).toBe(TOKEN);
    await waitFor(() => expect(screen.getByTestId('gateway-health').textContent).toContain('Gateway ok'));
  });

  it('picks up a token pasted into the address bar of an open tab (fragment change, no reload)', async () => {
    gateway();
    render(<App store={createShellStore()} initialBridge={undefined} tokenEnv={browserTokenEnvironment()} />);
    expect(screen.getByTestId('token-help')).toBeTruthy();
    window.location.hash = `#token=${TOKEN}`;
    await waitFor(() => expect(screen.getByRole('button', { name: /Assessment/ })).toBeTruthy(), { timeout: 10_000 });
    expect(window.location.hash).toBe('');
  });

  it('shows the sidebar from /api/services and the Assessment workspace', async () => {
    const { seen } = gateway();
    render(<App store={createShellStore()} initialBridge={{ apiBase: 'http://127.0.0.1:4100', token: TOKEN }} tokenEnv={browserTokenEnvironment()} />);
    // The workspace is a lazy chunk (cytoscape included): loading it can take a while on a busy machine.
    await waitFor(() => expect(screen.getByRole('button', { name: /Run assessment/ })).toBeTruthy(), { timeout: 20_000 });
    expect(screen.getByRole('navigation', { name: 'Workspaces' }).textContent).toContain('Assessment');
    expect(seen.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a refused token brings back the token screen, saying it was refused', async () => {
    gateway({ acceptToken: 'e'.repeat(32) });
    render(<App store={createShellStore()} initialBridge={{ apiBase: 'http://127.0.0.1:4100', token: TOKEN }} tokenEnv={browserTokenEnvironment()} />);
    await waitFor(() => expect(screen.getByTestId('token-help').textContent).toContain('refused'));
  });

  it('an absent gateway shows how to start it', async () => {
    gateway({ down: true });
    render(<App store={createShellStore()} initialBridge={{ apiBase: 'http://127.0.0.1:4100', token: TOKEN }} tokenEnv={browserTokenEnvironment()} />);
    await waitFor(() => expect(screen.getByTestId('gateway-unreachable').textContent).toContain('vitrine serve'));
  });
});
