// @vitest-environment jsdom
// The rule editor against a fake client: debounced validation of the latest text only, line errors marked in the gutter, benign hits and coverage shown.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleValidation } from '../../../../engines/core/contracts/petriage';
import { ApiError, type ApiClient } from '../../api/client';
import { RuleEditor } from './RuleEditor';

configure({ asyncUtilTimeout: 10_000 });

const VALID: RuleValidation = {
  rules: ['r1'],
  benignHits: [{ file: 'benign-007.exe', rules: ['r1'] }],
  benignHitCount: 1,
  benignCorpusSize: 100,
  specificity: 0.99,
  coverage: null,
};

/** A fake client whose validate answer depends on the text; records every body it was sent. */
function fakeClient() {
  const sent: string[] = [];
  const client: ApiClient = {
    apiBase: 'http://127.0.0.1:1',
    get: () => Promise.reject(new Error('unused')),
    open: () => Promise.reject(new Error('unused')),
    upload: () => Promise.reject(new Error('unused')),
    put: () => Promise.reject(new Error('unused')),
    patch: () => Promise.reject(new Error('unused')),
    delete: () => Promise.reject(new Error('unused')),
    post: <T,>(path: string, body: unknown): Promise<T> => {
      expect(path).toBe('/svc/petriage/api/rule/validate');
      const text = (body as { text: string }).text;
      sent.push(text);
      if (text.includes('broken')) {
        return Promise.reject(new ApiError(422, 'validation_failed', 'rule text line 2: unexpected token', 'req-1', [{ path: 'line 2', issue: 'unexpected token' }]));
      }
      return Promise.resolve(VALID as T);
    },
  };
  return { client, sent };
}

afterEach(cleanup);

describe('RuleEditor', () => {
  it('validates the initial rule and shows benign hits, specificity and that coverage was not measured', async () => {
    const { client, sent } = fakeClient();
    render(<RuleEditor client={client} base="/svc/petriage" initial={'rule r1 {\n condition: uint16(0) == 0x5A4D\n}'} absentReason={null} />);
    const status = screen.getByTestId('rule-status');
    await waitFor(() => expect(status.getAttribute('data-state')).toBe('valid'));
    expect(status.textContent).toContain('Valid, 1 benign hit');
    expect(status.textContent).toContain('benign-007.exe');
    expect(status.textContent).toContain('specificity 99.0 %');
    expect(status.textContent).toContain('not measured');
    expect(sent).toHaveLength(1);
  });

  it('sends only the text typed last, and marks the line the service names', async () => {
    const { client, sent } = fakeClient();
    render(<RuleEditor client={client} base="/svc/petriage" initial="" absentReason="No rule was synthesised." />);
    expect(screen.getByText('No rule was synthesised.')).toBeTruthy();
    const status = screen.getByTestId('rule-status');
    expect(status.getAttribute('data-state')).toBe('idle');
    const box = screen.getByLabelText('Rule text');
    fireEvent.change(box, { target: { value: 'rule a {' } });
    fireEvent.change(box, { target: { value: 'rule a {\n broken\n}' } });
    await waitFor(() => expect(status.getAttribute('data-state')).toBe('invalid'));
    expect(sent).toEqual(['rule a {\n broken\n}']);
    expect(status.textContent).toContain('line 2');
    expect(status.textContent).toContain('unexpected token');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const marked = document.querySelectorAll('.rule__gutter .rule__bad');
    expect(Array.from(marked).map((m) => m.textContent?.trim())).toEqual(['2']);
  });
});
