// @vitest-environment jsdom
// A filter typed before the search texts are all made: matched in idle slices on a fake clock, the matches so far shown
// with a quiet "still searching" line (a bar after a second), and the final list the one a match in one go gives.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { testEvent } from './events.fixture';
import type { IdleHost } from './idle-slices';
import { matchInSlices, SLOW_MS } from './match-slices';
import { buildTimeline, filterTerm, keptEvents, searchTexts, searchTextsMade, textMatches } from './model';
import { Timeline } from './Timeline';

afterEach(cleanup);

const T0 = Date.parse('2024-01-01T00:00:00Z');
function events(n: number): ExportedEvent[] {
  return Array.from({ length: n }, (_, i) => testEvent(i, i % 97 === 0 ? null : new Date(T0 + ((i * 7919) % n) * 1000).toISOString(), { host: `H${i % 3}`, action: i % 1000 === 0 ? 'log-cleared' : 'process-create', summary: `Run ${i} C:\\Tools\\T${i % 7}.EXE` }));
}

/** The kept list of a filter matched in one go over made texts. */
function oneGo(list: ExportedEvent[], filter: string): number[] {
  const index = buildTimeline(list);
  const texts = searchTexts(index);
  const term = filterTerm(filter);
  return [...keptEvents(index, (e, i) => textMatches(texts[i] ?? '', e, term))];
}

/** A fake clock that moves `tick` ms each time it is read, and a queue of slices run one by one. */
function fakeHost(tick: number): { host: IdleHost; clock: { now: number }; next: () => boolean } {
  const clock = { now: 0 };
  const queue: (() => void)[] = [];
  const host: IdleHost = {
    now: () => (clock.now += tick),
    later: (run) => {
      queue.push(run);
      return () => {
        const at = queue.indexOf(run);
        if (at >= 0) queue.splice(at, 1);
      };
    },
  };
  return { host, clock, next: () => (queue.shift()?.(), queue.length > 0) };
}

describe('matchInSlices', () => {
  it('leaves the list a match in one go gives, whatever the slices, and makes the texts on the way', () => {
    const list = events(3000);
    for (const filter of ['log-cleared', 'h1', ' T3.exe ', 'run 2', 'nothing here', 'C:\\TOOLS']) {
      for (const budget of [0, 1, 5, 1000]) {
        const index = buildTimeline(list);
        const term = filterTerm(filter);
        const m = matchInSlices(index, (e, _i, text) => textMatches(text, e, term));
        let before: number[] = [];
        let slices = 0;
        for (let done = false; !done; slices++) {
          let looks = 0;
          done = m.step(() => budget - looks++);
          const so = [...m.progress().kept];
          // The matches so far only grow, in position order.
          expect(so.slice(0, before.length)).toEqual(before);
          before = so;
        }
        expect(before).toEqual(oneGo(list, filter));
        expect(m.progress().scanned).toBe(3000);
        if (budget === 0) expect(slices).toBeGreaterThan(10);
        expect(searchTextsMade(index)).toEqual(searchTexts(buildTimeline(list)));
      }
    }
  });
});

describe('Timeline, a filter typed before the search texts are made', () => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

  it('shows the matches so far with a quiet line, a bar after a second, then the one-go list', () => {
    const list = events(20_000);
    const f = fakeHost(1);
    render(<Timeline index={buildTimeline(list)} storyEvents={new Set()} filter="H1" theme="light" idle={f.host} />);
    const box = screen.getByTestId('timeline');
    // Nothing searched yet: no "no event matches", a line saying what is left.
    expect(screen.getByTestId('timeline-searching').textContent).toBe('still searching 20,000 events');
    expect(screen.queryByTestId('timeline-empty')).toBeNull();
    expect(box.dataset['shown']).toBe('0');
    const seen: number[] = [];
    let bar = false;
    let barBefore = false;
    for (let more = true; more; ) {
      act(() => {
        more = f.next();
      });
      const line = screen.queryByTestId('timeline-searching');
      const shown = Number(box.dataset['shown']);
      if (line !== null) {
        seen.push(shown);
        const left = Number(box.dataset['searching']);
        expect(line.textContent).toContain(`still searching ${left.toLocaleString('en')} events`);
        expect(screen.getByTestId('timeline-count').textContent).toBe(`${shown.toLocaleString('en')} of 20,000 events`);
        expect(screen.getByTestId('timeline-strip').dataset['counted']).toBe(String(shown));
        const progress = line.querySelector('progress');
        if (progress !== null) {
          bar = true;
          expect(progress.value).toBe(20_000 - left);
        } else if (f.clock.now > SLOW_MS + 200) barBefore = true;
      }
    }
    // The count grew while searching, the bar came after a second and stayed.
    expect(seen.some((n) => n > 0 && n < 6667)).toBe(true);
    expect(bar).toBe(true);
    expect(barBefore).toBe(false);
    expect(f.clock.now).toBeGreaterThan(SLOW_MS);
    expect(screen.queryByTestId('timeline-searching')).toBeNull();
    expect(box.dataset['searching']).toBe('0');
    const ids = [...box.querySelectorAll('[data-event-id]')].map((r) => r.getAttribute('data-event-id'));
    const index = buildTimeline(list);
    const want = oneGo(list, 'H1');
    expect(box.dataset['shown']).toBe(String(want.length));
    expect(ids).toEqual(want.slice(0, ids.length).map((i) => index.events[i]?.eventId));
  });
});
