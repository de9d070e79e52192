// @vitest-environment jsdom
// The Detections panel: broken rules counted and listed (file, title, reason), rules waiting for a placeholder said inactive as the command line says them; author under the title, hosts a line each, tactics by name per rule.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DetectionsPanel, inactiveLabel } from './Detections';
import type { DetectionSummary, RuleProblem } from './types';

afterEach(cleanup);

const row: DetectionSummary = {
  ruleId: 'r1',
  title: 'Security Event Log Cleared',
  level: 'high',
  status: 'test',
  author: 'Vitrine',
  source: 'rules-builtin/windows/security/security_log_cleared.yml',
  techniques: ['T1685.005'],
  tactics: ['defense-impairment'],
  count: 1,
  hosts: ['DC01'],
  firstSeen: '2024-01-01T00:00:00Z',
  lastSeen: '2024-01-01T00:00:00Z',
  eventIds: ['0000000000000001'],
};

const problems: RuleProblem[] = [
  { source: 'user/broken.yml', id: null, title: null, reason: 'not YAML' },
  { source: 'user/unknown-id.yml', id: 'x', title: 'Unknown identifier', reason: 'the condition names a search identifier the detection does not define' },
];

describe('DetectionsPanel', () => {
  it('shows first and last seen in one column, the last only when it differs, each time on one line', () => {
    const later = { ...row, ruleId: 'r2', title: 'Later', lastSeen: '2024-01-01T00:05:00.1234567Z' };
    render(<DetectionsPanel rows={[row, later]} selected={null} onSelect={() => undefined} problems={[]} />);
    const cells = [...screen.getByTestId('detections').querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('.when')].map((e) => e.textContent));
    expect(cells).toEqual([['2024-01-01 00:00:00'], ['2024-01-01 00:00:00', '2024-01-01 00:05:00.1234567']]);
  });

  it('names the author under the rule title, lists hosts a line each with breaks after dots, and counts hosts past three', () => {
    const many = { ...row, ruleId: 'r3', title: 'Many hosts', author: null, hosts: ['01566s-win16-ir.threebeesco.com', 'PC01.example.corp', 'B', 'C', 'D'] };
    const two = { ...row, ruleId: 'r4', title: 'Two hosts', hosts: ['A', 'B.corp'] };
    render(<DetectionsPanel rows={[row, many, two]} selected={null} onSelect={() => undefined} />);
    const rows = [...screen.getByTestId('detections').querySelectorAll('tbody tr')];
    expect(rows[0]!.querySelector('td:nth-child(2) .detections__author')?.textContent).toBe('by Vitrine');
    expect(rows[1]!.querySelector('.detections__author')?.textContent).toBe('author not given');
    const hosts = rows[1]!.querySelector('.detections__hosts')!;
    expect([...hosts.querySelectorAll('.detections__host')].map((h) => h.textContent)).toEqual(['01566s-win16-ir.threebeesco.com', 'PC01.example.corp', 'B', 'and 2 more']);
    expect(hosts.querySelectorAll('.detections__host')[0]!.querySelectorAll('wbr')).toHaveLength(2);
    expect(hosts.getAttribute('title')).toBe('01566s-win16-ir.threebeesco.com\nPC01.example.corp\nB\nC\nD');
    expect([...rows[2]!.querySelectorAll('.detections__host')].map((h) => h.textContent)).toEqual(['A', 'B.corp']);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Level', 'Rule', 'Count', 'Hosts', 'First / last seen (UTC)', 'Techniques / tactics']);
  });

  it('writes informational as info in its badge, the whole word on hover', () => {
    render(<DetectionsPanel rows={[{ ...row, level: 'informational' }]} selected={null} onSelect={() => undefined} />);
    const badge = screen.getByTestId('detections').querySelector('tbody .level-badge')!;
    expect(badge.textContent).toBe('info');
    expect(badge.getAttribute('title')).toBe('informational');
  });

  it('shows how many rules could not run and lists each with its file and reason', () => {
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} problems={problems} techniqueNames={new Map([['T1685.005', 'Clear Windows Event Logs']])} />);
    const box = screen.getByTestId('rule-problems');
    expect(box.textContent).toContain('2 broken rules could not run');
    fireEvent.click(screen.getByText(/could not run/));
    expect(box.textContent).toContain('user/broken.yml');
    expect(box.textContent).toContain('the condition names a search identifier');
    expect(screen.getByTestId('detections').textContent).toContain('defense impairment');
    expect(screen.getByText('defense impairment').parentElement?.getAttribute('title')).toBe('defense-impairment');
    expect(screen.getByText('T1685.005').getAttribute('title')).toBe('T1685.005 Clear Windows Event Logs');
  });

  it('counts rules waiting for placeholder values apart from broken ones', () => {
    const waiting: RuleProblem[] = [
      { source: 'sigmahq/rules-placeholder/windows/a.yml', id: 'a', title: 'Admin group', reason: 'not run: placeholder %Admins_Workstations% has no values', placeholder: 'Admins_Workstations' },
      { source: 'sigmahq/rules-placeholder/windows/b.yml', id: 'b', title: 'Service accounts', reason: 'not run: placeholder %ServiceAccounts% has no values', placeholder: 'ServiceAccounts' },
      { source: 'sigmahq/rules-placeholder/windows/c.yml', id: 'c', title: 'Servers', reason: 'not run: placeholder %Servers% has no values', placeholder: 'Servers' },
    ];
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} problems={[...waiting, ...problems.slice(0, 1)]} />);
    expect(screen.getByTestId('rule-problems').textContent).toContain('1 broken rule could not run');
    expect(screen.getByTestId('rule-problems').textContent).not.toContain('Admin group');
    const placeholders = screen.getByTestId('rule-placeholders');
    // Said as the command line says an inactive rule, calmly: no severity badge, and each rule's status in its words.
    expect(placeholders.querySelector('summary')?.textContent).toBe('3 rules inactive: need placeholder values %Admins_Workstations%, %ServiceAccounts%, %Servers%');
    expect(placeholders.querySelector('summary .sev')).toBeNull();
    expect(placeholders.textContent).not.toContain('not run');
    expect(placeholders.textContent).toContain('inactive: needs placeholder %Servers%');
    expect(placeholders.textContent).toContain('Not broken');
    expect(placeholders.textContent).not.toContain('user/broken.yml');
  });

  it('names one inactive rule as the command line does, and counts placeholders past the first few', () => {
    const one: RuleProblem = { source: 'rules/windows/a.yml', id: 'a', title: 'A', reason: 'not run: placeholder %P% has no values', placeholder: 'P' };
    expect(inactiveLabel([one])).toBe('1 rule inactive: needs placeholder %P%');
    const many = ['A', 'B', 'C', 'D', 'E', 'A'].map((p, i): RuleProblem => ({ ...one, id: `${i}`, placeholder: p }));
    expect(inactiveLabel(many)).toBe('6 rules inactive: need placeholder values %A%, %B%, %C% and 2 more');
    expect(inactiveLabel([one, { ...one, id: 'b' }])).toBe('2 rules inactive: need placeholder %P%');
  });

  it('shows only the placeholder list when no rule is broken', () => {
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} problems={[{ source: 'x.yml', id: 'x', title: 't', reason: 'not run: placeholder %P% has no values', placeholder: 'P' }]} />);
    expect(screen.queryByTestId('rule-problems')).toBeNull();
    expect(screen.getByTestId('rule-placeholders').textContent).toContain('1 rule inactive: needs placeholder %P%');
  });

  it('shows no problem box when every rule ran', () => {
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} />);
    expect(screen.queryByTestId('rule-problems')).toBeNull();
    expect(screen.queryByTestId('rule-placeholders')).toBeNull();
  });
});

describe('DetectionsPanel level filter', () => {
  const at = (ruleId: string, level: DetectionSummary['level']): DetectionSummary => ({ ...row, ruleId, title: `Rule ${ruleId}`, level });
  const rows = [at('h', 'high'), at('m', 'medium'), at('i1', 'informational'), at('i2', 'informational')];

  it('lists every level by default and narrows to the lowest level chosen, saying what is not listed', () => {
    render(<DetectionsPanel rows={rows} selected={null} onSelect={() => undefined} />);
    const select = screen.getByTestId('detections-level') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['informational (all 4)', 'medium and up (2)', 'high and up (1)']);
    expect(screen.getAllByRole('row')).toHaveLength(5);
    fireEvent.change(select, { target: { value: 'medium' } });
    expect(screen.queryByText('Rule i1')).toBeNull();
    expect(screen.getByText('Rule m')).toBeTruthy();
    expect(screen.getByTestId('detections-hidden').textContent).toContain('2 rules below medium not listed');
    fireEvent.click(screen.getByText('Show all'));
    expect(screen.getByText('Rule i2')).toBeTruthy();
    expect(screen.queryByTestId('detections-hidden')).toBeNull();
  });

  it('keeps the rule whose events the timeline shows, and offers no filter for one level', () => {
    const { rerender } = render(<DetectionsPanel rows={rows} selected="i1" onSelect={() => undefined} />);
    fireEvent.change(screen.getByTestId('detections-level'), { target: { value: 'high' } });
    expect(screen.getByText('Rule i1')).toBeTruthy();
    expect(screen.queryByText('Rule i2')).toBeNull();
    rerender(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} />);
    expect(screen.queryByTestId('detections-level')).toBeNull();
  });
});

describe('DetectionsPanel with no detection', () => {
  it('labels its counts, and says how to get detections for a built-in scenario and what an empty list means otherwise', () => {
    const { unmount } = render(<DetectionsPanel rows={[]} selected={null} onSelect={() => undefined} origin="scenario:ransomware" />);
    expect(screen.getByTestId('detections').textContent).toContain('none · SigmaHQ rules');
    expect(screen.getByTestId('detections').textContent).not.toContain('0 by 0');
    expect(screen.getByTestId('detections-empty').textContent).toMatch(/built-in scenario is analysed without Sigma rules.*analyse EVTX files/);
    expect(screen.queryByRole('combobox')).toBeNull();
    unmount();
    render(<DetectionsPanel rows={[]} selected={null} onSelect={() => undefined} origin="path" />);
    expect(screen.getByTestId('detections-empty').textContent).toContain("No Sigma rule matched this case's events");
  });
});
