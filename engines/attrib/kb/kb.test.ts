import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../../core/errors.js';
import { buildShippedKb, serializeKb } from './build.js';
import { defaultAttribResourcesDir, kbFromJson, loadAttack, loadKb, SHIPPED_KB_FILE } from './kb.js';

const shippedPath = path.join(defaultAttribResourcesDir(), SHIPPED_KB_FILE);
const bundlePath = corpusPath('cti', 'attack', 'enterprise-attack.json');

describe('attrib knowledge base', () => {
  afterEach(() => {
    delete process.env['ATTR_KB'];
  });

  it.skipIf(!hasCorpora())('the shipped KB is current: rebuilding it from the corpus bundle gives the same data', () => {
    const shipped = gunzipSync(readFileSync(shippedPath)).toString('utf8');
    expect(serializeKb(buildShippedKb(bundlePath))).toBe(shipped);
  });

  it('ships the ATT&CK licence beside the KB', () => {
    expect(readFileSync(path.join(defaultAttribResourcesDir(), 'ATTACK-LICENSE.txt'), 'utf8')).toMatch(/The MITRE Corporation/);
  });

  it('holds techniques with tactics, groups with aliases, software, campaigns and procedure texts', () => {
    const kb = loadKb();
    const m = kb.data.metadata;
    expect(m.attack_version).toBe('18.1');
    expect(m.counts).toMatchObject({ tactics: 14, techniques: 227, sub_techniques: 476, groups: 181, software: 785, campaigns: 52 });
    expect(kb.techniques.get('T1059.001')).toMatchObject({ name: 'PowerShell', parent: 'T1059', tactics: ['execution'] });
    expect(kb.data.tactics[0]).toMatchObject({ id: 'TA0043', shortname: 'reconnaissance' });
    expect(kb.groups.get('G0007')?.aliases).toContain('Fancy Bear');
    expect(kb.software.get('S0002')).toMatchObject({ name: 'Mimikatz', type: 'tool' });
    expect(kb.groupTechniques.get('G0007')?.has('T1003.001')).toBe(true);
    const apt28Procedure = kb.data.relations.find(([s, t]) => s === 'G0007' && t === 'T1003.001');
    expect(apt28Procedure?.[2]).not.toMatch(/Citation:/);
    expect(apt28Procedure?.[2].length).toBeGreaterThan(10);
  });

  it('maps revoked ids to their replacement and marks deprecated objects', () => {
    const kb = loadKb();
    expect(kb.revoked.get('T1086')).toBe('T1059.001');
    expect(kb.techniques.has('T1086')).toBe(false);
    const deprecated = kb.data.techniques.filter((t) => t.deprecated === true);
    expect(deprecated.length).toBeGreaterThan(0);
    // deprecated techniques never count toward a group's profile
    for (const t of deprecated) expect(kb.techniqueGroupCount.has(t.id)).toBe(false);
  });

  it('is found through ATTR_KB, and a bundle given as the KB is converted', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-kb-'));
    const bundle = {
      type: 'bundle',
      id: 'bundle--00000000-0000-4000-8000-000000000000',
      objects: [
        { type: 'attack-pattern', id: 'attack-pattern--1', name: 'Thing', modified: '2024-01-01T00:00:00.000Z', external_references: [{ source_name: 'mitre-attack', external_id: 'T9999' }], kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'execution' }] },
        { type: 'intrusion-set', id: 'intrusion-set--1', name: 'Group', aliases: ['Group', 'Other'], modified: '2024-01-01T00:00:00.000Z', external_references: [{ source_name: 'mitre-attack', external_id: 'G9999' }] },
        { type: 'relationship', id: 'relationship--1', relationship_type: 'uses', source_ref: 'intrusion-set--1', target_ref: 'attack-pattern--1', description: 'Group did the thing.(Citation: X)', modified: '2024-01-01T00:00:00.000Z' },
      ],
    };
    const file = path.join(dir, 'bundle.json');
    writeFileSync(file, JSON.stringify(bundle));
    process.env['ATTR_KB'] = file;
    const kb = loadKb();
    expect(kb.groups.get('G9999')?.aliases).toEqual(['Other']);
    expect(kb.data.relations).toEqual([['G9999', 'T9999', 'Group did the thing.']]);
    expect(loadAttack(bundle).groupTechniques.get('G9999')?.has('T9999')).toBe(true);
  });

  it('refuses malformed files with errors that name neither the path nor the content', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-kb-bad-'));
    const bad = path.join(dir, 'secret-name.json');
    writeFileSync(bad, '{"format": "vitrine-attack-kb/1", "techniques": [');
    const err = (() => {
      try {
        loadKb(bad);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).message).not.toContain('secret-name');
    expect(() => loadKb(path.join(dir, 'missing.json'))).toThrow(VitrineError);
    expect(() => kbFromJson({ format: 'vitrine-attack-kb/1' })).toThrow(VitrineError);
    const small = loadAttack({ type: 'bundle', objects: [{ type: 'attack-pattern', id: 'attack-pattern--1', name: 'A', modified: '2024-01-01T00:00:00.000Z', external_references: [{ source_name: 'mitre-attack', external_id: 'T0001' }] }] }).data;
    expect(kbFromJson(JSON.parse(JSON.stringify(small))).techniques.has('T0001')).toBe(true);
    for (const bad of [['G1', 'T1'], ['G1', 'T1', 3], 'x']) expect(() => kbFromJson({ ...small, relations: [bad] })).toThrow(VitrineError);
    expect(() => loadAttack({ objects: 'no' })).toThrow(VitrineError);
  });
});
