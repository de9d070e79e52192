// @vitest-environment jsdom
// The Monitoring interval fields: the unit beside the number agrees with it ("check every 1 hour", "every 2 hours").
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { IntervalFields } from './MonitoringTab';

afterEach(cleanup);

function units(value: string): string[] {
  const { unmount } = render(<IntervalFields label="Check interval" value={value} unit="hours" onValue={() => undefined} onUnit={() => undefined} />);
  const select = screen.getByRole('combobox', { name: 'Check interval unit' });
  const words = Array.from(select.querySelectorAll('option'), (o) => o.textContent ?? '');
  unmount();
  return words;
}

describe('IntervalFields', () => {
  it('writes the units in the singular beside 1', () => {
    expect(units('1')).toEqual(['minute', 'hour', 'day']);
    expect(units(' 1 ')).toEqual(['minute', 'hour', 'day']);
  });

  it('writes them in the plural beside any other number, or none yet', () => {
    expect(units('2')).toEqual(['minutes', 'hours', 'days']);
    expect(units('30')).toEqual(['minutes', 'hours', 'days']);
    expect(units('')).toEqual(['minutes', 'hours', 'days']);
  });
});
