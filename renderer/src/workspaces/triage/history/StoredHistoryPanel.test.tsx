// @vitest-environment jsdom
// The History panel's rows: the file name first (ellipsised, the whole name on hover) with the short SHA-256 beside it; a row
// stored without a name leads with the short SHA-256.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredAnalysisPage, StoredAnalysisSummary } from '../../../../../engines/core/contracts/petriage';
import { emptyFiltered, StoredHistoryPanel } from './StoredHistoryPanel';
import type { StoredHistory } from './useStoredHistory';

afterEach(cleanup);

const named: StoredAnalysisSummary = {
  id: '11111111-2222-4333-8444-555555555555',
  sha256: 'ab'.repeat(32),
  fileName: `Quarterly report ${'long '.repeat(40)}final.exe`,
  size: 4096,
  createdAt: '2026-11-27T06:12:53.123Z',
  verdict: 'MALICIOUS',
  score: 0.91,
  family: 'keywren',
  modelType: 'linear',
};
const nameless: StoredAnalysisSummary = { ...named, id: '11111111-2222-4333-8444-666666666666', sha256: 'cd'.repeat(32), fileName: null, verdict: 'BENIGN', score: 0.02, family: null };
const spoof: StoredAnalysisSummary = { ...named, id: '11111111-2222-4333-8444-777777777777', sha256: 'ef'.repeat(32), fileName: 'photo\u202Egpj.exe' };

function history(items: readonly StoredAnalysisSummary[]): StoredHistory {
  const page: StoredAnalysisPage = { items, total: items.length, limit: 20, offset: 0 };
  return { page, error: null, problem: null, loading: false, filter: { verdict: '', text: '' }, setFilter: () => {}, load: () => {}, reload: () => {} };
}

describe('the History panel rows', () => {
  it('lead with the file name (whole name on hover), the short SHA-256 beside it; a nameless row leads with the short SHA-256', () => {
    render(<StoredHistoryPanel history={history([named, nameless, spoof])} openId={null} open onToggle={() => {}} onOpen={() => {}} />);
    const rows = screen.getAllByTestId('triage-history-row');
    expect(rows).toHaveLength(3);
    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement];

    const name = within(first).getByTestId('triage-history-name');
    expect(name.textContent).toBe(named.fileName);
    expect(name.getAttribute('title')).toBe(named.fileName);
    expect(name.className).toContain('ellipsis');
    expect(first.firstElementChild).toBe(name);
    expect(name.nextElementSibling?.textContent).toBe(`${'ab'.repeat(8)}…`);
    expect(first.getAttribute('title')).toMatch(new RegExp(`^Quarterly report .*final\\.exe\\nSHA-256 ${named.sha256}\\n`, 'u'));

    expect(within(second).queryByTestId('triage-history-name')).toBeNull();
    expect(second.firstElementChild?.textContent).toBe(`${'cd'.repeat(8)}…`);
    expect(second.getAttribute('title')).toMatch(/^SHA-256 c/u);

    // A right-to-left override cannot turn `gpj.exe` into `exe.jpg` on screen.
    expect(within(third).getByTestId('triage-history-name').textContent).toBe('photo⟨U+202E⟩gpj.exe');
  });
});

describe('the History filter box', () => {
  it('takes a file name or a SHA-256 start (label and placeholder say so); Esc clears it, ↓ moves to the first row', () => {
    let set: { verdict: string; text: string } | null = null;
    const h: StoredHistory = { ...history([named, nameless]), filter: { verdict: '', text: 'quarterly' }, setFilter: (f) => (set = f) };
    render(<StoredHistoryPanel history={h} openId={null} open onToggle={() => {}} onOpen={() => {}} />);
    const box = screen.getByTestId('triage-history-filter');
    expect(box.getAttribute('aria-label')).toBe('File name or SHA-256 start');
    expect(box.getAttribute('placeholder')).toBe('File name or SHA-256 start');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(set).toEqual({ verdict: '', text: '' });
    box.focus();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getAllByTestId('triage-history-row')[0]);
  });

  it('an empty filtered page says what was looked for', () => {
    expect(emptyFiltered('', 'invoice')).toMatch(/^No stored analysis whose file name holds “invoice”\. /u);
    expect(emptyFiltered('BENIGN', 'abc1')).toMatch(/^No stored analysis whose file name holds “abc1” or whose SHA-256 starts with it and with the verdict BENIGN\. /u);
    expect(emptyFiltered('MALICIOUS', '')).toMatch(/^No stored analysis with the verdict MALICIOUS\. /u);
  });
});
