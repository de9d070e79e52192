// A box that scrolls sideways says so: which of its edges hide more content (for a fade drawn on that edge), kept up
// to date on scroll and resize; and ← → (a step), Home and End scroll it from the keyboard once it has the focus.
import { useCallback, useEffect, useState, type KeyboardEvent, type RefObject } from 'react';

export interface ScrollEdges {
  /** Content hidden past the left edge. */
  readonly left: boolean;
  /** Content hidden past the right edge. */
  readonly right: boolean;
}

/** Which edges of `el` hide content (a pixel of rounding is not content). */
export function scrollEdges(el: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>): ScrollEdges {
  return { left: el.scrollLeft > 1, right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
}

export function useScrollEdges(ref: RefObject<HTMLElement | null>, step = 120): { edges: ScrollEdges; onScroll: () => void; onKeyDown: (e: KeyboardEvent) => void } {
  const [edges, setEdges] = useState<ScrollEdges>({ left: false, right: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = scrollEdges(el);
    setEdges((prev) => (prev.left === next.left && prev.right === next.right ? prev : next));
  }, [ref]);

  useEffect(() => {
    update();
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(el);
    for (const child of Array.from(el.children)) ro.observe(child);
    return () => ro.disconnect();
  });

  const onKeyDown = useCallback(
    (e: KeyboardEvent) => {
      const el = ref.current;
      if (!el || e.target !== el || e.altKey || e.ctrlKey || e.metaKey) return;
      const max = Math.max(0, el.scrollWidth - el.clientWidth);
      const to = { ArrowRight: el.scrollLeft + step, ArrowLeft: el.scrollLeft - step, Home: 0, End: max }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      el.scrollLeft = Math.min(max, Math.max(0, to));
      update();
    },
    [ref, step, update],
  );

  return { edges, onScroll: update, onKeyDown };
}
