// The search box's pure helpers: option order and keys, arrow-key movement, match highlighting, the open request hand-off.
import { describe, expect, it } from 'vitest';
import type { SearchGroup, SearchHit } from '../../../engines/core/contracts/search';
import { requestOpen, takeOpenRequest } from './openItem';
import { kindLabel, moveActive, optionsOf, splitMatch } from './search-model';

const hit = (service: string, id: string): SearchHit => ({ service, kind: 'story', id, title: id, field: 'f', snippet: 's', rank: 1, link: { service, kind: 'story', id } });
const group = (service: string, ids: string[]): SearchGroup => ({ service, title: service, workspace: service, hits: ids.map((i) => hit(service, i)), truncated: false });

describe('search box model', () => {
  it('flattens groups in order with stable keys', () => {
    const opts = optionsOf([group('replay', ['a', 'b']), group('forensic', ['c'])]);
    expect(opts.map((o) => [o.key, o.group])).toEqual([
      ['replay:story:a', 0],
      ['replay:story:b', 0],
      ['forensic:story:c', 1],
    ]);
  });

  it('moves the active option with wrap-around', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(1, 3, 'End')).toBe(2);
    expect(moveActive(1, 3, 'Home')).toBe(0);
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1);
  });

  it('splits text around the first match, case-insensitively', () => {
    expect(splitMatch('Attacker 10.0.0.1 seen', '10.0.0.1')).toEqual(['Attacker ', '10.0.0.1', ' seen']);
    expect(splitMatch('T1059.001 PowerShell', 't1059')).toEqual(['', 'T1059', '.001 PowerShell']);
    expect(splitMatch('nothing', 'x')).toEqual(['nothing']);
    // An identifier is marked where the search matched it, never inside a longer one.
    expect(splitMatch('SSH password guessing against 192.168.56.103 by 192.168.56.1', '192.168.56.1', true)).toEqual(['SSH password guessing against 192.168.56.103 by ', '192.168.56.1', '']);
    expect(splitMatch('only 192.168.56.103', '192.168.56.1', true)).toEqual(['only 192.168.56.103']);
    expect(splitMatch('T1059.001 PowerShell', 't1059', true)).toEqual(['', 'T1059', '.001 PowerShell']);
    expect(splitMatch('notevil.example and www.evil.example', 'evil.example', true)).toEqual(['notevil.example and www.', 'evil.example', '']);
    // Free text stays a substring.
    expect(splitMatch('mimikatz.exe', 'katz')).toEqual(['mimi', 'katz', '.exe']);
    expect(kindLabel('project-scan')).toBe('project scan');
  });

  it('hands an open request to the workspace it is meant for, once', () => {
    requestOpen({ service: 'replay', kind: 'story', id: 's1', title: 'Story' });
    expect(takeOpenRequest('forensic')).toBeNull();
    expect(takeOpenRequest('replay')).toMatchObject({ id: 's1' });
    expect(takeOpenRequest('replay')).toBeNull();
  });
});
