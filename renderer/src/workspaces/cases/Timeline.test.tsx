// @vitest-environment jsdom
// The timeline keeps the DOM small at 100,000 events (virtualised rows), highlights story events, and zooms and filters from the keyboard.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { buildTimeline, searchTexts, type TimelineIndex } from './model';
import { testEvent } from './events.fixture';
import { Timeline } from './Timeline';

afterEach(cleanup);

const T0 = Date.parse('2024-01-01T00:00:00Z');
/** A timeline whose search texts are made, as the idle slices make them soon after a case opens (a filter typed before is matched in slices: see match-slices.test.tsx). */
function madeTimeline(list: ExportedEvent[]): TimelineIndex {
  const index = buildTimeline(list);
  searchTexts(index);
  return index;
}
function events(n: number): ExportedEvent[] {
  return Array.from({ length: n }, (_, i) => testEvent(i, new Date(T0 + i * 1000).toISOString(), { host: `H${i % 3}`, action: i % 1000 === 0 ? 'log-cleared' : 'process-create' }));
}

describe('Timeline', () => {
  // jsdom has no canvas; the strip then draws nothing, which is fine here.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

  it('scrolls to an event asked for from outside and selects it, once per request, even past a detection filter', () => {
    // jsdom lays nothing out: scrollIntoView is only recorded.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const index = buildTimeline(events(50_000));
    const target = index.events[42_000]?.eventId ?? '';
    const detected = new Map([[index.events[3]?.eventId ?? '', [{ ruleId: 'r', title: 'R', level: 'high' as const, status: null, author: null, source: 's', techniques: [], tactics: [], count: 1, hosts: [], firstSeen: null, lastSeen: null, eventIds: [] }]]]);
    const { rerender } = render(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" detected={detected} />);
    fireEvent.click(screen.getByTestId('only-detections'));
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('1');
    rerender(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" detected={detected} focus={{ eventId: target, serial: 1 }} />);
    const row = document.querySelector(`[data-event-id="${target}"]`);
    expect(row?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('50000');
    expect(scrolled.length).toBe(1);
    // The analyst moves on; the same request does not pull the list back, a new one does.
    fireEvent.click(document.querySelector('[data-event-id]:not([aria-selected="true"])') as Element);
    rerender(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" detected={detected} focus={{ eventId: target, serial: 1 }} />);
    expect(document.querySelector(`[data-event-id="${target}"]`)?.getAttribute('aria-selected')).toBe('false');
    rerender(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" detected={detected} focus={{ eventId: target, serial: 2 }} />);
    expect(document.querySelector(`[data-event-id="${target}"]`)?.getAttribute('aria-selected')).toBe('true');
  });

  it('renders a few dozen rows of 100,000 events and marks the story ones', () => {
    const index = buildTimeline(events(100_000));
    const story = new Set([index.events[1]?.eventId ?? '']);
    render(<Timeline index={index} storyEvents={story} filter="" theme="light" />);
    const box = screen.getByTestId('timeline');
    expect(box.dataset['total']).toBe('100000');
    expect(box.dataset['shown']).toBe('100000');
    expect(Number(box.dataset['rendered'])).toBeLessThan(60);
    expect(document.querySelectorAll('.timeline__row--story')).toHaveLength(1);
  });

  it('zooms in from the keyboard and shows fewer events; 0 returns to the whole case', () => {
    const index = buildTimeline(events(100_000));
    render(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" />);
    const bar = screen.getByRole('toolbar', { name: 'Timeline zoom' });
    fireEvent.keyDown(bar, { key: '+' });
    fireEvent.keyDown(bar, { key: '+' });
    const shown = Number(screen.getByTestId('timeline').dataset['shown']);
    expect(shown).toBeGreaterThan(20_000);
    expect(shown).toBeLessThan(30_000);
    fireEvent.keyDown(bar, { key: '0' });
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('100000');
  });

  it('filters, selects a row with the arrow keys and shows its integrity hash', () => {
    const index = madeTimeline(events(5000));
    render(<Timeline index={index} storyEvents={new Set()} filter="log-cleared" theme="light" />);
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('5');
    // Each kept row shows why: the filter's text is marked.
    const marks = [...screen.getByTestId('timeline').querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(marks)).toEqual(new Set(['log-cleared']));
    fireEvent.keyDown(screen.getByRole('grid'), { key: 'ArrowDown' });
    expect(screen.getByTestId('event-detail').textContent).toContain('0'.repeat(64));
  });

  it('draws on the density strip only the events the filter keeps, as the table and its count do', () => {
    const index = madeTimeline(events(5000));
    const { rerender } = render(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" />);
    expect(screen.getByTestId('timeline-strip').dataset['counted']).toBe('5000');
    rerender(<Timeline index={index} storyEvents={new Set()} filter="log-cleared" theme="light" />);
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('5');
    expect(screen.getByTestId('timeline-count').textContent).toBe('5 of 5,000 events');
    expect(screen.getByTestId('timeline-strip').dataset['counted']).toBe('5');
    // Zoomed in, both follow the range and the filter.
    fireEvent.keyDown(screen.getByRole('toolbar', { name: 'Timeline zoom' }), { key: '+' });
    const shown = screen.getByTestId('timeline').dataset['shown'];
    expect(Number(shown)).toBeLessThan(5);
    expect(screen.getByTestId('timeline-strip').dataset['counted']).toBe(shown);
  });
});

describe('Timeline annotations and axis', () => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

  it('shows tags on the annotated rows, finds events by tag or note, and draws a time axis', () => {
    const index = madeTimeline(events(50));
    const id = index.events[3]?.eventId ?? '';
    const notes = new Map([[id, { eventId: id, tags: ['persistence', 'T1053'], note: 'made by the dropper', at: '2024-01-02T00:00:00Z', actor: 'analyst', seq: 1, versions: 1 }]]);
    const { rerender } = render(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" annotations={notes} />);
    expect(document.querySelectorAll('[data-annotated]')).toHaveLength(1);
    expect(document.querySelector(`[data-event-id="${id}"]`)?.textContent).toContain('T1053');
    expect(Number(screen.getByTestId('timeline-axis').dataset['ticks'])).toBeGreaterThan(1);
    rerender(<Timeline index={index} storyEvents={new Set()} filter="dropper" theme="light" annotations={notes} />);
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('1');
  });
});

describe('compactSummary', () => {
  it('shortens the Windows provider so the image stays in view', async () => {
    const { compactSummary } = await import('./Timeline');
    expect(compactSummary('Microsoft-Windows-Sysmon 1: process.create C:\\x.exe')).toBe('Sysmon 1: process.create C:\\x.exe');
    expect(compactSummary('Microsoft-Windows-Security-Auditing 4688: process.create C:\\x.exe')).toBe('Security 4688: process.create C:\\x.exe');
    expect(compactSummary('sshd[1]: Accepted')).toBe('sshd[1]: Accepted');
  });

  it('cuts a long trailing path or key in the middle so the program or key name shows, unless the filter matches only there', async () => {
    const { compactSummary } = await import('./Timeline');
    const word = 'Microsoft-Windows-Sysmon 1: process.create C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE';
    expect(compactSummary(word)).toBe('Sysmon 1: process.create C:\\…\\Office16\\WINWORD.EXE');
    expect(compactSummary(word, 'winword')).toBe('Sysmon 1: process.create C:\\…\\Office16\\WINWORD.EXE');
    expect(compactSummary(word, 'Microsoft Office')).toBe('Sysmon 1: process.create C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE');
    const key = 'Microsoft-Windows-Sysmon 13: registry.set HKU\\S-1-5-21-1004\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\updater';
    expect(compactSummary(key)).toBe('Sysmon 13: registry.set HKU\\…\\Run\\updater');
    // Short paths, paths of few parts and summaries without a trailing path stay as they are.
    expect(compactSummary('Microsoft-Windows-Sysmon 11: file.create C:\\Users\\Public\\svchost.exe')).toBe('Sysmon 11: file.create C:\\Users\\Public\\svchost.exe');
    expect(compactSummary('Sysmon 3: network.connect 185.220.101.47:443')).toBe('Sysmon 3: network.connect 185.220.101.47:443');
    expect(compactSummary('x C:\\a-very-long-folder-name-indeed\\and-another-long-one\\file.txt')).toBe('x C:\\a-very-long-folder-name-indeed\\and-another-long-one\\file.txt');
    // The path starts after the last quote or line break: one before it is not the trailing path.
    expect(compactSummary('cmd "C:\\Program Files\\A\\B\\C\\D\\tool.exe" D:\\data\\one\\two\\three\\four\\out.log')).toBe('cmd "C:\\Program Files\\A\\B\\C\\D\\tool.exe" D:\\…\\four\\out.log');
    expect(compactSummary('run "C:\\Program Files\\A\\B\\C\\D\\tool.exe"')).toBe('run "C:\\Program Files\\A\\B\\C\\D\\tool.exe"');
    expect(compactSummary('a C:\\x\nC:\\Users\\someone\\AppData\\Local\\Temp\\dropper.exe')).toBe('a C:\\x\nC:\\…\\Temp\\dropper.exe');
  });

  it('leaves out the action where it repeats the action column, and only there', async () => {
    const { compactSummary } = await import('./Timeline');
    expect(compactSummary('Microsoft-Windows-Sysmon 1: process.create C:\\Windows\\System32\\cmd.exe', '', 'process.create')).toBe('Sysmon 1: C:\\Windows\\System32\\cmd.exe');
    expect(compactSummary('Microsoft-Windows-Sysmon 3: network.connect 185.220.101.47:443', '', 'network.connect')).toBe('Sysmon 3: 185.220.101.47:443');
    expect(compactSummary('Microsoft-Windows-Sysmon 1: process.create C:\\x.exe', '', 'file.create')).toBe('Sysmon 1: process.create C:\\x.exe');
    expect(compactSummary('sshd[1]: Accepted password for root', '', 'auth.success')).toBe('sshd[1]: Accepted password for root');
  });
});

describe('Timeline list size and empty states', () => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

  it('is as tall as the rows a filter leaves, up to its most', () => {
    const index = madeTimeline(events(5000));
    const { rerender } = render(<Timeline index={index} storyEvents={new Set()} filter="" theme="light" />);
    expect(screen.getByRole('grid').style.height).toBe('360px');
    rerender(<Timeline index={index} storyEvents={new Set()} filter="H1" theme="light" />);
    expect(screen.getByRole('grid').style.height).toBe('360px');
    // One row: 24 px and the list's border.
    rerender(<Timeline index={index} storyEvents={new Set()} filter="00000000000003e8" theme="light" />);
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('1');
    expect(screen.getByRole('grid').style.height).toBe('26px');
    rerender(<Timeline index={index} storyEvents={new Set()} filter="log-cleared" theme="light" />);
    expect(screen.getByRole('grid').style.height).toBe(`${5 * 24 + 2}px`);
  });

  it('says why no row is listed and offers the way back', () => {
    const index = madeTimeline(events(50));
    let cleared = 0;
    render(<Timeline index={index} storyEvents={new Set()} filter="no such text" theme="light" onClearFilter={() => cleared++} />);
    const empty = screen.getByTestId('timeline-empty');
    expect(empty.textContent).toContain('No event matches the filter “no such text”.');
    expect(empty.textContent).toContain('Esc in the filter box');
    expect(empty.className).toContain('muted');
    expect(screen.queryByRole('grid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filter' }));
    expect(cleared).toBe(1);
    cleanup();
    render(<Timeline index={buildTimeline([])} storyEvents={new Set()} filter="" theme="light" />);
    expect(screen.getByTestId('timeline-empty').textContent).toBe('This case has no events.');
  });

  it('says when the kept events lie outside the range shown', () => {
    const index = madeTimeline(events(5000));
    render(<Timeline index={index} storyEvents={new Set()} filter="00000000000003e8" theme="light" />);
    const bar = screen.getByRole('toolbar', { name: 'Timeline zoom' });
    // Zoomed in around the middle, away from event 1000 (at 1000 s of 5000 s).
    for (let i = 0; i < 4; i++) fireEvent.keyDown(bar, { key: '+' });
    expect(screen.getByTestId('timeline-empty').textContent).toContain('No event in the range shown matches; 1 in the whole case does.');
    fireEvent.click(within(screen.getByTestId('timeline-empty')).getByRole('button', { name: 'Whole case' }));
    expect(screen.getByTestId('timeline').dataset['shown']).toBe('1');
  });
});
