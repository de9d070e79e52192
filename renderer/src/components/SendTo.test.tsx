// @vitest-environment jsdom
// The Send to dialog names the finding as the app writes engine prose: a Replay story title's "->" chain reads "→",
// as it does on the story itself.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client';
import { ShellContext } from '../shell/context';
import { createShellStore } from '../store';
import { SendToDialog } from './SendTo';

afterEach(cleanup);

function client(): ApiClient {
  const refuse = (): Promise<never> => Promise.reject(new Error('not served here'));
  return {
    apiBase: 'http://127.0.0.1:1',
    get: <T,>() => Promise.resolve({ items: [], total: 0 } as T),
    post: refuse,
    put: refuse,
    patch: refuse,
    delete: refuse,
    open: refuse,
    upload: refuse,
  };
}

describe('SendToDialog', () => {
  it('shows the finding title with its chain as arrows', async () => {
    const store = createShellStore();
    store.getState().setServices([{ name: 'caseassess', title: 'Case assessment', workspace: 'Assessment', base: '/svc/caseassess' }]);
    const api = client();
    const title = 'Replay story 1: 198.51.100.23: Port scan -> SSH password guessing';
    render(
      <ShellContext.Provider value={{ store, client: api, retry: () => undefined }}>
        <SendToDialog client={api} finding={{ title, techniques: ['T1046'], indicators: [], source: { service: 'replay', kind: 'story', id: 'S-1' } }} onClose={() => undefined} />
      </ShellContext.Provider>,
    );
    const source = await screen.findByTestId('send-to-source');
    expect(source.querySelector('strong')?.textContent).toBe('Replay story 1: 198.51.100.23: Port scan → SSH password guessing');
    expect(source.textContent).not.toContain('->');
  });
});
