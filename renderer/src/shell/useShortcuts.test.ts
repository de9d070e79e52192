// @vitest-environment jsdom
// Keyboard shortcuts: Alt/Ctrl+digit by slot, `?` and Esc for the overlay, `/` to the active workspace's search, nothing while typing.
import { beforeEach, describe, expect, it } from 'vitest';
import { createShellStore } from '../store';
import { handleShortcut } from './useShortcuts';

const svc = (name: string) => ({ name, title: name, workspace: name, base: `/svc/${name}` });

function key(init: KeyboardEventInit & { target?: EventTarget }): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { bubbles: true, ...init });
  if (init.target) Object.defineProperty(e, 'target', { value: init.target });
  return e;
}

describe('handleShortcut', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('switches workspace by slot with Alt or Ctrl, and ignores slots with no service', () => {
    const store = createShellStore();
    store.getState().setServices([svc('pkgscan'), svc('caseassess')]);
    expect(handleShortcut(key({ key: '4', code: 'Digit4', altKey: true }), store)).toBe(true);
    expect(store.getState().active).toBe('caseassess');
    expect(handleShortcut(key({ key: '1', code: 'Digit1', ctrlKey: true }), store)).toBe(true);
    expect(store.getState().active).toBe('pkgscan');
    expect(handleShortcut(key({ key: '7', code: 'Digit7', altKey: true }), store)).toBe(false);
    expect(handleShortcut(key({ key: '4', code: 'Digit4', altKey: true, ctrlKey: true }), store)).toBe(false);
    expect(store.getState().active).toBe('pkgscan');
  });

  it('opens help with ? and closes it with Esc, but not while typing', () => {
    const store = createShellStore();
    const input = document.createElement('input');
    document.body.append(input);
    expect(handleShortcut(key({ key: '?', target: input }), store)).toBe(false);
    expect(store.getState().overlay).toBeNull();
    expect(handleShortcut(key({ key: '?', target: document.body }), store)).toBe(true);
    expect(store.getState().overlay).toBe('help');
    expect(handleShortcut(key({ key: 'Escape', target: input }), store)).toBe(true);
    expect(store.getState().overlay).toBeNull();
  });

  it('opens the settings with Ctrl+, (even from a field), not with a plain comma', () => {
    const store = createShellStore();
    const input = document.createElement('input');
    document.body.append(input);
    expect(handleShortcut(key({ key: ',', target: input }), store)).toBe(false);
    expect(store.getState().overlay).toBeNull();
    expect(handleShortcut(key({ key: ',', ctrlKey: true, target: input }), store)).toBe(true);
    expect(store.getState().overlay).toBe('settings');
    expect(handleShortcut(key({ key: 'Escape', target: document.body }), store)).toBe(true);
    expect(store.getState().overlay).toBeNull();
  });

  it('focuses the active workspace search with /', () => {
    const store = createShellStore();
    document.body.innerHTML =
      '<div hidden><input data-workspace-search id="other"></div><div data-active-workspace="caseassess"><input type="search" data-workspace-search id="mine"></div>';
    expect(handleShortcut(key({ key: '/', target: document.body }), store)).toBe(true);
    expect(document.activeElement?.id).toBe('mine');
  });
});
