// A graph keeps its first view fitted to its box: when the box is resized (the window, a panel beside it), the view is
// made again, until the user pans or zooms (drag, wheel, pinch, or the toolbar: `moved()`); from then on the view is theirs.
import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** What of a cytoscape graph this needs (a fake in tests). */
export interface FitTarget {
  destroyed(): boolean;
  resize(): unknown;
  on(events: string, handler: () => void): unknown;
  removeListener(events: string, handler: () => void): unknown;
}

/** The user's own pans and zooms (cytoscape's names); a programmatic fit fires none of them. */
export const USER_VIEWPORT_EVENTS = 'dragpan scrollzoom pinchzoom';

/**
 * Calls `view` whenever the box's size changes while the user has not moved the view (the first view is the caller's).
 * Returns `moved`, for the toolbar's own pans and zooms, and `reset`, for a view the caller makes anew (a new highlight).
 */
export function useFitUntilMoved(cy: FitTarget | null, box: RefObject<HTMLElement | null>, view: () => void): { moved: () => void; reset: () => void } {
  const movedRef = useRef(false);
  const viewRef = useRef(view);
  viewRef.current = view;

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    movedRef.current = false;
    const onUser = (): void => {
      movedRef.current = true;
    };
    cy.on(USER_VIEWPORT_EVENTS, onUser);
    let size = `${el.clientWidth}x${el.clientHeight}`;
    const ro = typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver(() => {
          const now = `${el.clientWidth}x${el.clientHeight}`;
          if (now === size || cy.destroyed()) return;
          size = now;
          cy.resize();
          if (!movedRef.current) viewRef.current();
        });
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      if (!cy.destroyed()) cy.removeListener(USER_VIEWPORT_EVENTS, onUser);
    };
  }, [cy, box]);

  const moved = useCallback(() => {
    movedRef.current = true;
  }, []);
  const reset = useCallback(() => {
    movedRef.current = false;
  }, []);
  return { moved, reset };
}
