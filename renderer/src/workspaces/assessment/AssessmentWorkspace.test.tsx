// @vitest-environment jsdom
// The Assessment workspace while an assessment runs: the result pane says it is assessing (not "press Run"), and the bar
// is striped while the service's job waits in the queue, not an empty bar that reads as nothing happening.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../../engines/core/contracts/gateway';
import type { ApiClient } from '../../api/client';
import { ShellContext } from '../../shell/context';
import { createShellStore } from '../../store';
import AssessmentWorkspace from './AssessmentWorkspace';

configure({ asyncUtilTimeout: 10_000 });
afterEach(cleanup);

const service = { name: 'caseassess', title: 'Case assessment', workspace: 'Assessment', base: '/svc/caseassess' };

/** Every list empty; an assessment never answers, so the workspace stays in its running state. */
function client(): ApiClient {
  const refuse = (): Promise<never> => Promise.reject(new Error('not served here'));
  return {
    apiBase: 'http://127.0.0.1:1',
    get: <T,>() => Promise.resolve({ items: [], total: 0 } as T),
    post: () => new Promise<never>(() => undefined),
    put: refuse,
    patch: refuse,
    delete: refuse,
    open: refuse,
    upload: refuse,
  };
}

const queued: JobInfo = { id: 'j1', service: 'caseassess', type: 'caseassess.assess', state: 'queued', fraction: 0, started_at: '2026-12-02T11:00:00.000Z' };

describe('Assessment while a case is assessed', () => {
  it('says it is assessing the case and shows a striped bar while the job is queued', async () => {
    const store = createShellStore();
    const api = client();
    render(
      <ShellContext.Provider value={{ store, client: api, retry: () => undefined }}>
        <AssessmentWorkspace service={service} client={api} />
      </ShellContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sample case' }));
    const ready = (await screen.findByTestId('assessment-ready')).textContent;
    expect(ready).toContain('The sample case is in the editor, not assessed yet.');
    expect(ready).toContain('Press Run assessment');
    store.getState().setJobs([queued]);
    fireEvent.click(screen.getByTestId('run-assessment'));

    const running = await screen.findByTestId('assessment-running');
    expect(running.textContent).toContain('Assessing the sample case…');
    expect(running.textContent).not.toContain('case from sample case');
    expect(screen.queryByTestId('assessment-ready')).toBeNull();
    const bar = screen.getByRole('progressbar', { name: 'Assessment progress' });
    expect(bar.getAttribute('aria-valuenow')).toBeNull();
    expect(bar.className).toContain('progress--unknown');
  });
});
