// @vitest-environment jsdom
// The Detections panel: rules that could not run are counted and listed (file, title, reason); tactics shown per rule.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DetectionsPanel } from './Detections';
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
  it('shows how many rules could not run and lists each with its file and reason', () => {
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} problems={problems} techniqueNames={new Map([['T1685.005', 'Clear Windows Event Logs']])} />);
    const box = screen.getByTestId('rule-problems');
    expect(box.textContent).toContain('2 rules could not run');
    fireEvent.click(screen.getByText(/could not run/));
    expect(box.textContent).toContain('user/broken.yml');
    expect(box.textContent).toContain('the condition names a search identifier');
    expect(screen.getByTestId('detections').textContent).toContain('defense-impairment');
    expect(screen.getByText('T1685.005').getAttribute('title')).toBe('T1685.005 Clear Windows Event Logs');
  });

  it('shows no problem box when every rule ran', () => {
    render(<DetectionsPanel rows={[row]} selected={null} onSelect={() => undefined} />);
    expect(screen.queryByTestId('rule-problems')).toBeNull();
  });
});
