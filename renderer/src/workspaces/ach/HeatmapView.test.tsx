// @vitest-environment jsdom
// The Heat map of a matrix's evidence is looked up by an extraction job: while it has not answered, the view says it is
// looking them up, never "No techniques yet" over a matrix whose evidence names techniques.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AchAssessment, ExtractResponse } from '../../../../engines/core/contracts/ach';
import type { ApiClient } from '../../api/client';
import { HeatmapView } from './HeatmapView';

afterEach(cleanup);

/** Only what the view reads of a matrix: its scenario's title and the techniques of its evidence. */
const MATRIX = {
  scenario: { name: 'wiper', title: 'Opening-ceremony wiper' },
  evidence: [{ techniques: ['T1485', 'T1490'] }, { techniques: ['T1003.001'] }],
} as unknown as AchAssessment;

const ANSWER: ExtractResponse = {
  extraction: {
    length: 0,
    indicators: [],
    techniques: [],
    technique_summary: [{ id: 'T1485', name: 'Data Destruction', tactics: ['impact'], count: 1, sources: ['id'] }],
    warnings: [],
  },
  layer: { name: 'x', versions: { layer: '4.5' }, domain: 'enterprise-attack', techniques: [] },
  stix: { type: 'bundle', id: 'bundle--1', objects: [] },
};

function client(post: () => Promise<unknown>): ApiClient {
  return { apiBase: '', post } as unknown as ApiClient;
}

describe('HeatmapView of a matrix', () => {
  it('says it is looking the techniques up while the extraction has not answered', () => {
    render(<HeatmapView client={client(() => new Promise(() => undefined))} base="/svc/attrib" extraction={null} assessment={MATRIX} />);
    expect(screen.getByTestId('heatmap-loading').textContent).toContain('Looking up the techniques');
    expect(screen.queryByText(/No techniques yet/)).toBeNull();
  });

  it('draws the techniques once they are there', async () => {
    render(<HeatmapView client={client(() => Promise.resolve(ANSWER))} base="/svc/attrib" extraction={null} assessment={MATRIX} />);
    expect((await screen.findByTitle('T1485 Data Destruction: 1')).textContent).toContain('Data Destruction');
    expect(screen.queryByTestId('heatmap-loading')).toBeNull();
    expect(screen.queryByText(/No techniques yet/)).toBeNull();
    // The colours say what they measure: how often a technique is named, alike here since each is named once.
    expect(screen.getByTestId('heatmap-legend').textContent).toMatch(/colour deepens with how often the technique is named .*each is named once/);
  });

  it('says when its columns run past the panel (a fade on that edge) and scrolls them from the keyboard', async () => {
    render(<HeatmapView client={client(() => Promise.resolve(ANSWER))} base="/svc/attrib" extraction={null} assessment={MATRIX} />);
    await screen.findByTitle('T1485 Data Destruction: 1');
    const box = screen.getByTestId('heatmap-columns');
    // jsdom lays nothing out: the box is 900 px wide, its columns 1,200.
    let left = 0;
    Object.defineProperty(box, 'clientWidth', { configurable: true, get: () => 900 });
    Object.defineProperty(box, 'scrollWidth', { configurable: true, get: () => 1200 });
    Object.defineProperty(box, 'scrollLeft', { configurable: true, get: () => left, set: (v: number) => { left = v; } });
    fireEvent.scroll(box);
    expect(box.className).toContain('ach__heat--more-right');
    expect(box.className).not.toContain('ach__heat--more-left');
    expect(box.tabIndex).toBe(0);
    expect(box.getAttribute('aria-label')).toMatch(/scroll sideways/);
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    expect(left).toBe(120);
    expect(box.className).toContain('ach__heat--more-left');
    expect(box.className).toContain('ach__heat--more-right');
    fireEvent.keyDown(box, { key: 'End' });
    expect(left).toBe(300);
    expect(box.className).not.toContain('ach__heat--more-right');
    fireEvent.keyDown(box, { key: 'Home' });
    expect(left).toBe(0);
    expect(box.className).not.toContain('ach__heat--more-left');
  });
});
