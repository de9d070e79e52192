// @vitest-environment jsdom
// The shell's two overlays (`?` and Settings) on the shared Modal with the shell's keys: each opens as a labelled dialog
// with its test id, Esc closes it once whether focus is inside it or not, and focus goes back where it was.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createShellStore } from '../store';
import type { StoreApi } from 'zustand/vanilla';
import type { ShellState } from '../store';
import { ShellContext } from './context';
import { Settings } from './Settings';
import { ShortcutHelp } from './ShortcutHelp';
import { useShortcuts } from './useShortcuts';

afterEach(cleanup);

function Shell({ store }: { readonly store: StoreApi<ShellState> }) {
  useShortcuts(store);
  return (
    <ShellContext.Provider value={{ store, client: null, retry: () => undefined }}>
      <button type="button">Behind</button>
      <ShortcutHelp />
      <Settings />
    </ShellContext.Provider>
  );
}

/** Counts the times the overlay is closed (a close with nothing open counts too). */
function closes(store: StoreApi<ShellState>): () => number {
  let n = 0;
  const close = store.getState().closeOverlay;
  store.setState({
    closeOverlay: () => {
      n++;
      close();
    },
  });
  return () => n;
}

describe.each([
  { overlay: 'help' as const, testId: 'shortcut-help', title: 'Keyboard shortcuts', open: { key: '?' } },
  { overlay: 'settings' as const, testId: 'settings', title: 'Settings', open: { key: ',', ctrlKey: true } },
])('the $overlay overlay', ({ overlay, testId, title, open }) => {
  it('opens from its key as a labelled dialog; Esc inside closes it once and focus returns', () => {
    const store = createShellStore();
    const count = closes(store);
    render(<Shell store={store} />);
    const behind = screen.getByText('Behind');
    behind.focus();
    fireEvent.keyDown(behind, open);
    expect(store.getState().overlay).toBe(overlay);
    const dialog = screen.getByRole('dialog', { name: title });
    expect(dialog.dataset['testid']).toBe(testId);
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close (Esc)' }), { key: 'Escape' });
    expect(count()).toBe(1);
    expect(screen.queryByTestId(testId)).toBeNull();
    expect(document.activeElement).toBe(behind);
  });

  it('Esc with focus outside the panel closes it once too (the shell\'s key)', () => {
    const store = createShellStore();
    const count = closes(store);
    render(<Shell store={store} />);
    act(() => store.getState().openOverlay(overlay));
    expect(screen.getByTestId(testId)).toBeTruthy();
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(count()).toBe(1);
    expect(screen.queryByTestId(testId)).toBeNull();
  });
});
