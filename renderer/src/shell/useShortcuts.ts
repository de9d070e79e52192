// Global keyboard shortcuts: Alt/Ctrl+digit switch workspace, `?` help, `/` search, Esc closes overlays.
import { useEffect } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { ShellState } from '../store';
import { availableWorkspaces } from '../workspaces/registry';

export interface Shortcut {
  readonly keys: string;
  readonly does: string;
}

/** Shown in the help overlay and docs/ui.md; keep the three in step. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Alt+1 … Alt+9 (or Ctrl+1 … Ctrl+9)', does: 'Switch workspace (the number is shown beside each one)' },
  { keys: '?', does: 'Open this list of shortcuts' },
  { keys: '/', does: "Focus the workspace's search or filter field" },
  { keys: 'Ctrl+K', does: 'Search everything: an IP, hash, domain, technique id or package across every workspace' },
  { keys: 'Esc', does: 'Close an overlay' },
  { keys: 'Ctrl+,', does: 'Open the settings (data folder, evidence root, theme)' },
  { keys: 'Tab / Shift+Tab', does: 'Move between controls' },
];

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
}

/** The digit of Alt+N / Ctrl+N by physical key, so layouts where Alt+digit types a symbol still work. */
function slotOf(e: KeyboardEvent): number | undefined {
  if (e.shiftKey || e.metaKey || e.altKey === e.ctrlKey) return undefined;
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
  return m ? Number(m[1]) : undefined;
}

export function handleShortcut(e: KeyboardEvent, store: StoreApi<ShellState>, root: ParentNode = document): boolean {
  const s = store.getState();
  // Esc inside an overlay's panel is the Modal's (it stops there); this one closes the overlay when focus is elsewhere.
  if (e.key === 'Escape' && s.overlay !== null) {
    s.closeOverlay();
    return true;
  }
  const slot = slotOf(e);
  if (slot !== undefined) {
    const ws = availableWorkspaces(s.services).find((w) => w.slot === slot);
    if (!ws) return false;
    s.closeOverlay();
    s.select(ws.service);
    return true;
  }
  if (e.key === ',' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
    s.openOverlay('settings');
    return true;
  }
  if (e.ctrlKey || e.altKey || e.metaKey || isEditable(e.target)) return false;
  if (e.key === '?') {
    s.openOverlay('help');
    return true;
  }
  if (e.key === '/' && s.overlay === null) {
    const field = root.querySelector<HTMLElement>('[data-active-workspace] [data-workspace-search]');
    if (!field) return false;
    field.focus();
    return true;
  }
  return false;
}

export function useShortcuts(store: StoreApi<ShellState>): void {
  useEffect(() => {
    const on = (e: KeyboardEvent): void => {
      if (handleShortcut(e, store)) e.preventDefault();
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, [store]);
}
