// The width of an element in CSS pixels, followed as the window or a panel resizes, so a drawing can lay itself out
// at the size it is shown (its text then stays at its font size instead of scaling with a viewBox).
import { useEffect, useState, type RefObject } from 'react';

/** `el`'s content width, rounded; `fallback` before it is measured or where ResizeObserver is absent (jsdom). */
export function useElementWidth(el: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const node = el.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => {
      const w = Math.round(node.clientWidth);
      if (w > 0) setWidth(w);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    measure();
    return () => observer.disconnect();
  }, [el]);
  return width;
}
