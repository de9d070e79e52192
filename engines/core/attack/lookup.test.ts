// The one ATT&CK lookup: shipped 18.1 plus v19 from its change set, an analyst's newer knowledge base on top, revoked and unknown ids.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTACK_KB_FORMAT } from './bundle.js';
import { mkdirSync } from 'node:fs';
import { AttackLookup, applyDelta, compareVersions, dataHome, defaultReleases, installedKbPath, type AttackDelta, type AttackRelease } from './lookup.js';

const base: AttackRelease = {
  version: '18.1',
  source: 'test',
  tactics: [
    { id: 'TA0004', shortname: 'privilege-escalation', name: 'Privilege Escalation' },
    { id: 'TA0005', shortname: 'defense-evasion', name: 'Defense Evasion' },
    { id: 'TA0006', shortname: 'credential-access', name: 'Credential Access' },
  ],
  techniques: [
    { id: 'T1070', name: 'Indicator Removal', tactics: ['defense-evasion'] },
    { id: 'T1070.001', name: 'Clear Windows Event Logs', tactics: ['defense-evasion'], parent: 'T1070' },
    { id: 'T1222', name: 'File and Directory Permissions Modification', tactics: ['defense-evasion'] },
    { id: 'T1003', name: 'OS Credential Dumping', tactics: ['credential-access'] },
  ],
  revoked: { T1086: 'T1003' },
};

const delta: AttackDelta = {
  format: 'vitrine-attack-delta/1',
  version: '19',
  base: '18.1',
  source: 'test delta',
  provenance: [],
  tactics: [
    { id: 'TA0004', shortname: 'privilege-escalation', name: 'Privilege Escalation' },
    { id: 'TA0005', shortname: 'stealth', name: 'Stealth' },
    { id: 'TA0112', shortname: 'defense-impairment', name: 'Defense Impairment' },
    { id: 'TA0006', shortname: 'credential-access', name: 'Credential Access' },
  ],
  retired_tactics: { 'defense-evasion': 'stealth' },
  defense_impairment: ['T1222'],
  renamed: {},
  techniques: [{ id: 'T1685.005', name: 'Clear Windows Event Logs', tactics: ['defense-impairment'] }],
  revoked: { 'T1070.001': 'T1685.005' },
};

describe('a delta whose revoked ids are named after Object.prototype members', () => {
  it('follows the chain through them as through any other id', () => {
    const odd: AttackDelta = { ...delta, revoked: JSON.parse('{"T1070.001":"constructor","constructor":"__proto__","__proto__":"T1685.005","T1222":"toString"}') as Record<string, string> };
    expect(applyDelta(base, odd).revoked).toStrictEqual(JSON.parse('{"T1086":"T1003","T1070.001":"T1685.005","constructor":"T1685.005","__proto__":"T1685.005","T1222":"toString"}'));
  });
});

describe('the ATT&CK lookup over several releases', () => {
  const lookup = new AttackLookup([base, applyDelta(base, delta)]);

  it('orders releases newest first and tactics in kill-chain order, a retired tactic after its successors', () => {
    expect(lookup.releases.map((r) => r.version)).toEqual(['19', '18.1']);
    expect(lookup.tacticOrder).toEqual(['privilege-escalation', 'stealth', 'defense-impairment', 'defense-evasion', 'credential-access']);
    expect(lookup.isTactic('stealth') && lookup.isTactic('defense-evasion')).toBe(true);
    expect(compareVersions('19', '18.1')).toBeGreaterThan(0);
  });

  it('moves retired-tactic techniques to Stealth or Defense Impairment and names the new ids', () => {
    expect(lookup.technique('T1070')).toMatchObject({ tactics: ['stealth'], status: 'current', version: '19' });
    expect(lookup.technique('T1222').tactics).toEqual(['defense-impairment']);
    expect(lookup.technique('t1685.005')).toMatchObject({ id: 'T1685.005', name: 'Clear Windows Event Logs', version: '19' });
  });

  it('names revoked ids with their replacement, and unknown ids as unknown', () => {
    expect(lookup.technique('T1070.001')).toMatchObject({ status: 'revoked', revokedBy: 'T1685.005', tactics: ['defense-impairment'], name: 'Clear Windows Event Logs' });
    expect(lookup.label('T1070.001')).toBe('Clear Windows Event Logs (revoked, now T1685.005 Clear Windows Event Logs)');
    expect(lookup.technique('T1086')).toMatchObject({ status: 'revoked', revokedBy: 'T1003', name: 'Revoked technique' });
    expect(lookup.technique('T9999')).toMatchObject({ status: 'unknown', name: 'Unknown technique', tactics: [] });
    expect(lookup.technique('not an id').status).toBe('unknown');
  });

  it('takes an analyst-loaded knowledge base (ATTR_KB, what attrib load-attack writes) as the newest release', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attack-kb-'));
    const file = path.join(dir, 'kb.json');
    const kb = {
      format: ATTACK_KB_FORMAT,
      metadata: { source: 'newer', attack_version: '20.0', modified: '2027-01-01T00:00:00Z', counts: {} },
      licence: 'x',
      tactics: [{ id: 'TA0005', shortname: 'stealth', name: 'Stealth' }],
      techniques: [{ id: 'T1699', name: 'Brand New Technique', tactics: ['stealth'] }],
      revoked: {},
      groups: [],
      software: [],
      campaigns: [],
      relations: [],
    };
    writeFileSync(file, JSON.stringify(kb));
    const releases = defaultReleases(undefined, { ATTR_KB: file });
    const l = new AttackLookup(releases);
    expect(l.version).toBe('20.0');
    expect(l.technique('T1699').name).toBe('Brand New Technique');
    // Older releases still name what the new file lacks.
    expect(l.technique('T1059.001')).toMatchObject({ name: 'PowerShell', status: 'current' });
    expect(l.technique('T1685.005').version).toBe('19');
  });

  it('finds one technique across releases: the ids revoked in favour of a new id, and the other way round', () => {
    expect(lookup.predecessors('T1685.005')).toEqual(['T1070.001']);
    expect(lookup.predecessors('T1003')).toEqual(['T1086']);
    expect(lookup.predecessors('T1059')).toEqual([]);
    expect([...lookup.equivalents('t1070.001')].sort()).toEqual(['T1070.001', 'T1685.005']);
    expect([...lookup.equivalents('T1685.005')].sort()).toEqual(['T1070.001', 'T1685.005']);
    expect(lookup.equivalents('T9999')).toEqual(['T9999']);
    const all = lookup.allTechniques().map((t) => t.id);
    expect(all).toContain('T1685.005');
    expect(all).not.toContain('T1070.001');
  });

  it('reads the knowledge base attrib load-attack --install put in the data folder; a named file (ATTR_KB) wins over it', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'attack-home-'));
    expect(dataHome({ VITRINE_HOME: home })).toBe(home);
    const installed = installedKbPath({ VITRINE_HOME: home });
    expect(installed).toBe(path.join(home, 'attack', 'attack-kb.json'));
    mkdirSync(path.dirname(installed), { recursive: true });
    const kb = (version: string, id: string) => ({
      format: ATTACK_KB_FORMAT,
      metadata: { source: 'installed', attack_version: version, modified: '2027-01-01T00:00:00Z', counts: {} },
      licence: 'x',
      tactics: [{ id: 'TA0005', shortname: 'stealth', name: 'Stealth' }],
      techniques: [{ id, name: `Technique of ${version}`, tactics: ['stealth'] }],
      revoked: {},
      groups: [],
      software: [],
      campaigns: [],
      relations: [],
    });
    writeFileSync(installed, JSON.stringify(kb('21', 'T1701')));
    const l = new AttackLookup(defaultReleases(undefined, { VITRINE_HOME: home }));
    expect(l.version).toBe('21');
    expect(l.technique('T1701').name).toBe('Technique of 21');
    const named = path.join(home, 'named.json');
    writeFileSync(named, JSON.stringify(kb('22', 'T1702')));
    const both = new AttackLookup(defaultReleases(undefined, { VITRINE_HOME: home, ATTR_KB: named }));
    expect(both.version).toBe('22');
    expect(both.technique('T1701').status).toBe('unknown');
  });

  it('the shipped releases are 19 and 18.1', () => {
    const l = new AttackLookup(defaultReleases(undefined, { VITRINE_HOME: mkdtempSync(path.join(tmpdir(), 'attack-home-')) }));
    expect(l.releases.map((r) => r.version)).toEqual(['19', '18.1']);
    expect(l.tactic('defense-impairment')?.id).toBe('TA0112');
  });
});
