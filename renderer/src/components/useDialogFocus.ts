// A modal dialog's focus, one way for every overlay (Send to…, the shortcuts, Settings): focus moves into the panel when it
// opens and back where it was when it closes, and Tab / Shift+Tab go round the panel's controls instead of leaving for
// the page hidden behind it (aria-modal says the page is inert; the keyboard has to agree).
import { useEffect, type KeyboardEvent, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab reaches inside `panel`, in document order (hidden ones left out). */
export function tabStops(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.closest('[hidden]') === null && el.getAttribute('aria-hidden') !== 'true' && el.style.display !== 'none');
}

/**
 * Keeps Tab inside `panel`: from the last control (or the panel itself, with Shift) to the other end; from anywhere outside
 * it, to its first control. Call from the panel's onKeyDown.
 */
export function keepTabInside(e: KeyboardEvent | globalThis.KeyboardEvent, panel: HTMLElement | null): void {
  if (e.key !== 'Tab' || !panel) return;
  const stops = tabStops(panel);
  if (stops.length === 0) {
    e.preventDefault();
    panel.focus();
    return;
  }
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const at = document.activeElement;
  const inside = at instanceof Node && panel.contains(at);
  if (!inside) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && (at === first || at === panel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && at === last) {
    e.preventDefault();
    first.focus();
  }
}

/** Focus into `panel` while `open`, back to what had it when it closes; returns the panel's key handler (Tab kept inside). */
export function useDialogFocus(panel: RefObject<HTMLElement | null>, open = true): (e: KeyboardEvent) => void {
  useEffect(() => {
    if (!open) return undefined;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => {
      if (before?.isConnected === true) before.focus();
    };
  }, [open, panel]);
  return (e) => keepTabInside(e, panel.current);
}

/**
 * Focus is lost when it is on the page itself, or on a control that has just been disabled or removed (the browser moves
 * it to the page a moment later, after the effects of the same render have run).
 */
export function focusLost(at: Element | null): boolean {
  if (at === null || at === document.body || !at.isConnected) return true;
  return (at instanceof HTMLButtonElement || at instanceof HTMLInputElement || at instanceof HTMLSelectElement || at instanceof HTMLTextAreaElement) && at.disabled;
}

/**
 * After work that disabled or replaced the focused control (an upload, an analysis, a send), focus is on the page itself
 * and the next Tab starts from the top. When `key` changes to a non-null value and focus is lost so, `target` takes it:
 * the result's heading or the next action, so the keyboard goes on from where the work ended.
 */
export function useFocusWhenLost(target: RefObject<HTMLElement | null>, key: unknown): void {
  useEffect(() => {
    if (key === null || key === undefined || key === false) return;
    if (!focusLost(document.activeElement)) return;
    target.current?.focus({ preventScroll: true });
  }, [key, target]);
}
