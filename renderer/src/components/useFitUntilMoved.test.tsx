// @vitest-environment jsdom
// A graph's first view is made again when its box is resized, until the user pans or zooms (drag, wheel, pinch, toolbar).
import { cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FitTarget, useFitUntilMoved, USER_VIEWPORT_EVENTS } from './useFitUntilMoved';

afterEach(cleanup);

/** The ResizeObservers made, to call by hand (jsdom lays nothing out). */
let observers: Array<() => void> = [];
beforeEach(() => {
  observers = [];
  globalThis.ResizeObserver = class {
    constructor(private readonly cb: () => void) {
      observers.push(() => this.cb());
    }
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as unknown as typeof ResizeObserver;
});

function fakeGraph(): FitTarget & { handlers: Map<string, () => void>; resized: number } {
  const g = {
    handlers: new Map<string, () => void>(),
    resized: 0,
    destroyed: () => false,
    resize: () => ++g.resized,
    on: (events: string, h: () => void) => g.handlers.set(events, h),
    removeListener: (events: string) => g.handlers.delete(events),
  };
  return g;
}

let width = 500;
let toolbarMoved: () => void = () => undefined;
function Graph({ cy, view }: { cy: FitTarget; view: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const { moved } = useFitUntilMoved(cy, box, view);
  toolbarMoved = moved;
  return <div ref={box} />;
}

function resizeTo(w: number): void {
  width = w;
  for (const o of observers) o();
}

describe('useFitUntilMoved', () => {
  beforeEach(() => {
    width = 500;
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
  });

  it('makes the view again on each resize until the user drags, wheels or pinches', () => {
    const cy = fakeGraph();
    let views = 0;
    render(<Graph cy={cy} view={() => views++} />);
    expect(observers).toHaveLength(1);
    resizeTo(700);
    expect([cy.resized, views]).toEqual([1, 1]);
    resizeTo(700); // the same size: nothing to do
    expect(views).toBe(1);
    resizeTo(520);
    expect(views).toBe(2);
    cy.handlers.get(USER_VIEWPORT_EVENTS)!();
    resizeTo(900);
    // Resized for the canvas, but the view is the user's now.
    expect([cy.resized, views]).toEqual([3, 2]);
  });

  it('stops after a toolbar pan or zoom too', () => {
    const cy = fakeGraph();
    let views = 0;
    render(<Graph cy={cy} view={() => views++} />);
    toolbarMoved();
    resizeTo(800);
    expect(views).toBe(0);
  });
});
