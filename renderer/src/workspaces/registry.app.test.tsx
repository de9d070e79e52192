// @vitest-environment jsdom
// A workspace added as one registry entry, with nothing else edited: the shell shows it in the sidebar, an item link
// in the address selects it and hands it the request, the search box knows it can open the item, `?` lists its keys.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useCallback, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { browserTokenEnvironment } from '../api/token';
import { canOpen, useOpenRequest, type OpenRequest } from '../shell/openItem';
import { createShellStore } from '../store';
import type * as Registry from './registry';
import type { WorkspaceDef, WorkspaceProps } from './registry';

configure({ asyncUtilTimeout: 10_000 });

const TOKEN = 'f'.repeat(32);

/** The new workspace's screens: shows the last item it was asked to open. */
function NotesWorkspace({ service }: WorkspaceProps) {
  const [opened, setOpened] = useState<string>('nothing');
  useOpenRequest(
    service.name,
    useCallback((r: OpenRequest) => setOpened(`${r.kind} ${r.id}`), []),
  );
  return <p data-testid="notes-opened">Opened: {opened}</p>;
}

vi.mock('./registry', async (importOriginal) => {
  const original = await importOriginal<typeof Registry>();
  const notes: WorkspaceDef = {
    service: 'notes',
    label: 'Notes',
    purpose: 'Keep case notes',
    slot: 10,
    component: original.screens(async () => ({ default: NotesWorkspace })),
    keys: { keys: [{ keys: 'n', does: 'Start a new note' }] },
    links: { aliases: ['notebook'], opens: ['note'] },
  };
  const defs = [...original.WORKSPACES, notes];
  return { ...original, ...original.indexWorkspaces(defs), WORKSPACES: defs };
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function gateway(): void {
  const health = { status: 'ok', version: '0.1.0', uptime_s: 1, services: [], workers: { size: 2, busy: 0, queued: 0 } };
  const services = [
    { name: 'flowdet', title: 'Flow detection', workspace: 'Flows', base: '/svc/flowdet' },
    { name: 'notes', title: 'Case notes', workspace: 'Notes', base: '/svc/notes' },
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      if (url.pathname === '/api/health') return json(200, health);
      if (url.pathname === '/api/services') return json(200, services);
      if (url.pathname === '/api/jobs') return json(200, []);
      if (url.pathname === '/api/events') return new Response(new ReadableStream({ start() {} }), { status: 200 });
      return json(404, { error: { code: 'not_found', message: 'not found', request_id: 'req-00000001' } });
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.location.hash = '';
});

describe('a workspace added with one registry entry', () => {
  it('appears, takes an item link by its alias, and lists its keys', async () => {
    gateway();
    window.location.hash = '#/notebook/note/n-42';
    render(<App store={createShellStore()} initialBridge={{ apiBase: 'http://127.0.0.1:4100', token: TOKEN }} tokenEnv={browserTokenEnvironment()} />);
    await waitFor(() => expect(screen.getByTestId('notes-opened').textContent).toBe('Opened: note n-42'));
    expect(screen.getByRole('navigation', { name: 'Workspaces' }).textContent).toContain('Notes');
    expect(window.location.hash).toBe('');
    expect(canOpen({ service: 'notes', kind: 'note', id: 'n-1' })).toBe(true);
    expect(canOpen({ service: 'notes', kind: 'page', id: 'p-1' })).toBe(false);

    window.location.hash = '#/notes/note/n-43';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(screen.getByTestId('notes-opened').textContent).toBe('Opened: note n-43'));

    fireEvent.keyDown(window, { key: '?' });
    await waitFor(() => expect(screen.getByTestId('workspace-keys').textContent).toContain('Start a new note'));
  });
});
