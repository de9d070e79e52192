// @vitest-environment jsdom
// The graph toolbar's buttons show their key as a key cap after their words: "Whole graph (0)" read as a graph of nothing.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphZoomBar } from './GraphZoomBar';

afterEach(cleanup);

function keyCap(testId: string): string | null {
  return screen.getByTestId(testId).querySelector('kbd')?.textContent ?? null;
}

describe('GraphZoomBar', () => {
  it('names each button by its words and shows its key as a key cap, not in brackets', () => {
    render(<GraphZoomBar testId="bar" onAct={() => true} labelPx={12} focusLabel="The story" expanded={false} />);
    expect(screen.getByRole('button', { name: 'Whole graph' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'The story' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Whole window' })).toBeTruthy();
    for (const [id, key] of [['graph-whole', '0'], ['graph-story', 's'], ['graph-expand', 'f']] as const) {
      expect(screen.getByTestId(id).textContent).not.toMatch(/\(/u);
      expect(keyCap(id)).toBe(key);
      expect(screen.getByTestId(id).getAttribute('aria-keyshortcuts')).toBe(key);
    }
  });

  it('shows a caller\'s back words with their key the same way', () => {
    render(<GraphZoomBar testId="bar" onAct={() => true} labelPx={12} expanded backLabel="Back to the case (Esc)" />);
    expect(screen.getByRole('button', { name: 'Back to the case' })).toBeTruthy();
    expect(keyCap('graph-expand')).toBe('Esc');
    expect(screen.getByTestId('graph-expand').getAttribute('aria-keyshortcuts')).toBe('Escape');
  });

  it('still acts on the buttons and keys', () => {
    const acted: string[] = [];
    render(<GraphZoomBar testId="bar" onAct={(k) => acted.push(k) > 0} labelPx={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Whole graph' }));
    fireEvent.keyDown(screen.getByRole('toolbar', { name: 'Graph zoom' }), { key: '+' });
    expect(acted).toEqual(['0', '+']);
  });
});
