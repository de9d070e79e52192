import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../errors.js';
import { attackExternalId, cleanProcedureText, parseAttackBundle, releaseFromIndex } from './bundle.js';

const csvRows = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));

describe('ATT&CK bundle reader', () => {
  it.skipIf(!hasCorpora())('matches the ICS 18.1 ground truth: 83 active techniques, 14 active groups, and the jq-derived uses relations', () => {
    const d = parseAttackBundle(JSON.parse(readFileSync(corpusPath('cti', 'attack', 'ics-attack-18.1.json'), 'utf8')) as unknown);
    expect(d.metadata.attack_version).toBe('18.1');
    expect(d.techniques.filter((t) => t.deprecated !== true)).toHaveLength(83);
    expect(d.groups.filter((g) => g.deprecated !== true)).toHaveLength(14);
    expect(d.tactics).toHaveLength(12);
    expect(d.tactics[0]!.shortname).toBe('initial-access');
    const active = new Set([...d.techniques, ...d.groups, ...d.software].filter((x) => x.deprecated !== true).map((x) => x.id));
    const campaigns = new Set(d.campaigns.map((c) => c.id));
    // derived/ics-18.1-groups-to-techniques.csv: group uses technique, neither revoked nor deprecated.
    const expectedGroupTechnique = new Set(csvRows(corpusPath('cti', 'derived', 'ics-18.1-groups-to-techniques.csv')).map((r) => `${r[0]}>${r[2]}`));
    const gotGroupTechnique = new Set(d.relations.filter(([s, t]) => s.startsWith('G') && t.startsWith('T') && active.has(s) && active.has(t)).map(([s, t]) => `${s}>${t}`));
    expect(gotGroupTechnique).toEqual(expectedGroupTechnique);
    expect(expectedGroupTechnique.size).toBe(20);
    // derived/ics-18.1-uses-relationships.csv: groups and campaigns using techniques and malware.
    const expectedUses = new Set(csvRows(corpusPath('cti', 'derived', 'ics-18.1-uses-relationships.csv')).map((r) => `${r[1]}>${r[4]}`));
    const malware = new Set(d.software.filter((s) => s.type === 'malware').map((s) => s.id));
    const gotUses = new Set(
      d.relations
        .filter(([s, t]) => (active.has(s) || campaigns.has(s)) && (s.startsWith('G') || s.startsWith('C')) && active.has(t) && (t.startsWith('T') || malware.has(t)))
        .map(([s, t]) => `${s}>${t}`),
    );
    expect(gotUses).toEqual(expectedUses);
  });

  it('reads ids, revocations, deprecations, campaigns and procedure texts from a small bundle', () => {
    const ref = (id: string) => [{ source_name: 'mitre-attack', external_id: id }];
    const m = '2024-01-01T00:00:00.000Z';
    const d = parseAttackBundle({
      type: 'bundle',
      objects: [
        { type: 'x-mitre-tactic', id: 'x-mitre-tactic--1', name: 'Execution', x_mitre_shortname: 'execution', external_references: ref('TA0002'), modified: m },
        { type: 'attack-pattern', id: 'attack-pattern--1', name: 'Old', revoked: true, external_references: ref('T1086'), modified: m },
        { type: 'attack-pattern', id: 'attack-pattern--2', name: 'PowerShell', external_references: ref('T1059.001'), kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'execution' }], modified: m },
        { type: 'attack-pattern', id: 'attack-pattern--3', name: 'Gone', x_mitre_deprecated: true, external_references: ref('T1000'), modified: m },
        { type: 'intrusion-set', id: 'intrusion-set--1', name: 'G', aliases: ['G', 'Gee'], external_references: ref('G0001'), modified: m },
        { type: 'campaign', id: 'campaign--1', name: 'Op', external_references: ref('C0001'), first_seen: '2020-01-01T00:00:00Z', modified: m },
        { type: 'relationship', id: 'relationship--1', relationship_type: 'revoked-by', source_ref: 'attack-pattern--1', target_ref: 'attack-pattern--2', modified: m },
        { type: 'relationship', id: 'relationship--2', relationship_type: 'attributed-to', source_ref: 'campaign--1', target_ref: 'intrusion-set--1', modified: m },
        { type: 'relationship', id: 'relationship--3', relationship_type: 'uses', source_ref: 'campaign--1', target_ref: 'attack-pattern--2', description: 'Ran [PowerShell](https://x/y_(z)) scripts.(Citation: A B)', modified: m },
        { type: 'relationship', id: 'relationship--4', relationship_type: 'uses', source_ref: 'intrusion-set--1', target_ref: 'attack-pattern--1', modified: m },
        'not an object',
        null,
      ],
    });
    expect(d.revoked).toEqual({ T1086: 'T1059.001' });
    expect(d.techniques.map((t) => [t.id, t.deprecated ?? false, t.parent ?? null])).toEqual([
      ['T1000', true, null],
      ['T1059.001', false, 'T1059'],
    ]);
    expect(d.groups).toEqual([{ id: 'G0001', name: 'G', aliases: ['Gee'] }]);
    expect(d.campaigns).toEqual([{ id: 'C0001', name: 'Op', aliases: [], groups: ['G0001'], first_seen: '2020-01-01T00:00:00Z' }]);
    // the relation to a revoked technique is dropped
    expect(d.relations).toEqual([['C0001', 'T1059.001', 'Ran PowerShell scripts.']]);
    expect(d.metadata.attack_version).toBeNull();
  });

  it('follows revocations through ids named after Object.prototype members as through any other id', () => {
    const ref = (id: string) => [{ source_name: 'mitre-attack', external_id: id }];
    const m = '2024-01-01T00:00:00.000Z';
    const pattern = (n: number, id: string) => ({ type: 'attack-pattern', id: `attack-pattern--${n}`, name: id, revoked: n < 4, external_references: ref(id), modified: m });
    const revokedBy = (n: number, from: number, to: number) => ({ type: 'relationship', id: `relationship--${n}`, relationship_type: 'revoked-by', source_ref: `attack-pattern--${from}`, target_ref: `attack-pattern--${to}`, modified: m });
    const d = parseAttackBundle({
      type: 'bundle',
      objects: [pattern(1, 'T1086'), pattern(2, '__proto__'), pattern(3, 'constructor'), pattern(4, 'T1059'), revokedBy(1, 1, 2), revokedBy(2, 2, 3), revokedBy(3, 3, 4)],
    });
    expect(d.revoked).toStrictEqual(JSON.parse('{"T1086":"T1059","__proto__":"T1059","constructor":"T1059"}'));
  });

  it('refuses what is not a bundle and names the release from an index', () => {
    expect(() => parseAttackBundle([])).toThrow(VitrineError);
    expect(() => parseAttackBundle({ objects: [{ type: 'x' }] })).toThrow(VitrineError);
    const index = { collections: [{ name: 'Enterprise ATT&CK', versions: [{ version: '2', modified: '2024-06-01T00:00:00Z' }, { version: '1', modified: '2024-01-01T00:00:00Z' }] }] };
    expect(releaseFromIndex(index, '2023-12-31T00:00:00Z')).toBe('1');
    expect(releaseFromIndex(index, '2024-02-01T00:00:00Z')).toBe('2');
    expect(releaseFromIndex(index, '2025-01-01T00:00:00Z')).toBeNull();
    expect(attackExternalId({ external_references: [{ source_name: 'capec', external_id: 'CAPEC-1' }] })).toBeUndefined();
    expect(cleanProcedureText('a  (Citation: X)  b', 3)).toBe('a b');
  });
});
