// @vitest-environment jsdom
// The Packages pager: the window of a list with Previous and Next, and nothing at all under an empty list (its empty state speaks).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Pager } from './ui';

afterEach(cleanup);

describe('Pager', () => {
  it('shows the window and the buttons of a list with entries', () => {
    render(<Pager offset={50} limit={50} total={120} onOffset={() => undefined} />);
    expect(screen.getByText('51–100 of 120')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
  });

  it('draws nothing under an empty list: no disabled buttons around "none"', () => {
    const { container } = render(<Pager offset={0} limit={50} total={0} onOffset={() => undefined} older="Older" newer="Newer" />);
    expect(container.innerHTML).toBe('');
  });
});
