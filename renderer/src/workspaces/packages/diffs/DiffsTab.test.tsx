// @vitest-environment jsdom
// The Release diffs form: every field carries a visible label (not only an aria-label), the fields run in reading order, and a submit posts what they hold.
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePackagesNav } from '../common/nav';
import type { PkgscanApi } from '../session';
import { DiffsTab } from './DiffsTab';

configure({ asyncUtilTimeout: 10_000 });
afterEach(() => {
  cleanup();
  usePackagesNav.getState().reset();
});

function fakeApi(): PkgscanApi & { bodies: unknown[] } {
  const bodies: unknown[] = [];
  return {
    bodies,
    get: <T,>(path: string): Promise<T> => (path === '/diffs' ? Promise.resolve({ items: [], total: 0, limit: 20, offset: 0 } as T) : Promise.reject(new Error(`unexpected ${path}`))),
    post: <T,>(path: string, body?: unknown): Promise<T> => {
      expect(path).toBe('/diffs');
      bodies.push(body);
      return new Promise<T>(() => undefined);
    },
    put: () => Promise.reject(new Error('unused')),
    patch: () => Promise.reject(new Error('unused')),
    del: () => Promise.reject(new Error('unused')),
    upload: () => Promise.reject(new Error('unused')),
  };
}

describe('Release diffs form', () => {
  it('labels each field with visible text, in the order an analyst fills them, and posts them', async () => {
    const api = fakeApi();
    render(<DiffsTab api={api} canCreate />);
    const form = screen.getByTestId('diff-form');
    const fields = [...form.querySelectorAll('input, select, button')];
    // Each field sits in a <label> whose own text names it: the name is on screen, not only for a screen reader.
    const names = fields.filter((f) => f.tagName !== 'BUTTON').map((f) => {
      expect(f.getAttribute('aria-label')).toBeNull();
      const label = f.closest('label');
      expect(label).not.toBeNull();
      return (label?.firstChild?.textContent ?? '').trim();
    });
    expect(names).toEqual(['Ecosystem', 'Package name', 'From version (older)', 'To version (newer)']);
    // Tab order is the document order (no tabindex anywhere), ending on Compare.
    expect(fields.every((f) => !f.hasAttribute('tabindex'))).toBe(true);
    expect(fields.at(-1)?.textContent).toBe('Compare');

    fireEvent.change(within(form).getByLabelText('Package name'), { target: { value: ' an0n-chat-lib ' } });
    fireEvent.change(within(form).getByLabelText('From version (older)'), { target: { value: '0.1.0' } });
    fireEvent.change(within(form).getByLabelText('To version (newer)'), { target: { value: '0.1.5' } });
    fireEvent.submit(form);
    await waitFor(() => expect(api.bodies).toEqual([{ ecosystem: 'npm', name: 'an0n-chat-lib', from_version: '0.1.0', to_version: '0.1.5' }]));
  });
});
