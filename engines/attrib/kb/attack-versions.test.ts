// ATT&CK releases in the attribution service: v19 ids (from the core lookup's change set) named in extraction, layers and
// STIX, compared with the 18.1 profiles in attribution and ACH; an id no release knows is unknown, never its own name;
// an analyst's newer bundle installed with `attrib load-attack --install` is what every service then resolves.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attackLookup, installedKbPath, refreshAttackLookup } from '../../core/attack/lookup.js';
import { analyzeScenario } from '../ach/engine.js';
import { seedHypotheses } from '../ach/matrices.js';
import { assessmentToStix } from '../ach/stix.js';
import { attributeTechniques } from '../attribute/attribute.js';
import { main } from '../cli.js';
import { extract } from '../extract/extract.js';
import { toNavigatorLayer } from '../extract/navigator.js';
import { extractionToStix } from '../extract/stix.js';
import { loadKb } from './kb.js';

const kb = loadKb();
const work = mkdtempSync(path.join(tmpdir(), 'attrib-versions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('ATT&CK v19 in the attribution service', () => {
  it('names v19 ids in extraction (with their v19 tactic), the Navigator layer and the STIX bundle; an id no release knows is dropped with a warning', () => {
    const e = extract('Event logs were cleared (T1685.005) and a host firewall was turned off (T1686). T1999 is not a technique.', kb);
    const byId = new Map(e.technique_summary.map((t) => [t.id, t]));
    expect(byId.get('T1685.005')).toMatchObject({ name: attackLookup().technique('T1685.005').name, tactics: ['defense-impairment'] });
    expect(byId.get('T1685.005')!.name).not.toBe('T1685.005');
    expect(byId.has('T1686')).toBe(true);
    expect(byId.has('T1999')).toBe(false);
    expect(e.warnings.join(' ')).toMatch(/1 technique id\(s\) not in the knowledge base were ignored/);
    const layer = toNavigatorLayer(e, kb, 'r');
    expect(layer.techniques.map((t) => t.techniqueID)).toEqual(expect.arrayContaining(['T1685.005', 'T1686']));
    const patterns = extractionToStix(e, kb, { name: 'r' }).objects.filter((o) => o.type === 'attack-pattern') as unknown as { name: string; kill_chain_phases?: { phase_name: string }[] }[];
    const cleared = patterns.find((p) => p.name === byId.get('T1685.005')!.name);
    expect(cleared?.kill_chain_phases?.map((k) => k.phase_name)).toEqual(['defense-impairment']);
  });

  it('the 18.1 name index is unchanged: a technique named in words still resolves to the 18.1 id', () => {
    const e = extract('The operators used Clear Windows Event Logs to hide.', kb);
    expect(e.technique_summary.map((t) => t.id)).toContain('T1070.001');
  });

  it('attribution compares a v19 id as the 18.1 ids it replaced, and says so', () => {
    const old = attributeTechniques(['T1070.001', 'T1059.001', 'T1486'], kb, { shortlist: 10 });
    const warnings: string[] = [];
    const v19 = attributeTechniques(['T1685.005', 'T1059.001', 'T1486'], kb, { shortlist: 10 }, warnings);
    expect(v19.shortlist.map((c) => [c.id, c.score])).toEqual(old.shortlist.map((c) => [c.id, c.score]));
    expect(warnings.join(' ')).toContain('T1685.005 as T1070.001');
  });

  it('ACH rates v19 evidence against actors recorded with the 18.1 ids (C, not I), also in a matrix seeded from the knowledge base', () => {
    const a = analyzeScenario({
      actors: [
        { id: 'A1', name: 'Recorded with 18.1', techniques: ['T1070.001'] },
        { id: 'A2', name: 'Other', techniques: ['T1566.001'] },
      ],
      evidence: [{ id: 'E1', summary: 'event logs cleared', techniques: ['T1685.005'] }],
    });
    const cells = a.evidence[0]!.cells;
    expect(cells.find((c) => c.hypothesis === 'A1')).toMatchObject({ rating: 'C', source: 'derived' });
    expect(cells.find((c) => c.hypothesis === 'A2')).toMatchObject({ rating: 'I', source: 'derived' });
    const seeded = seedHypotheses(['T1685.005', 'T1059.001'], kb);
    expect(seeded.actors.length).toBeGreaterThan(0);
    const users = seeded.actors.filter((x) => (x.techniques ?? []).includes('T1070.001'));
    expect(users.length).toBeGreaterThan(0);
  });

  it('ACH STIX names attack patterns from whichever release knows them, and an unknown id as "Unknown technique", never as its id', () => {
    const a = analyzeScenario({
      actors: [
        { id: 'A1', name: 'One', techniques: ['T1685.005'] },
        { id: 'A2', name: 'Two', techniques: [] },
      ],
      evidence: [
        { id: 'E1', summary: 'logs cleared', techniques: ['T1685.005'] },
        { id: 'E2', summary: 'typo', techniques: ['T1999'] },
      ],
    });
    const patterns = assessmentToStix(a).objects.filter((o) => o.type === 'attack-pattern') as unknown as { name: string; external_references: { external_id?: string }[] }[];
    const byId = new Map(patterns.map((p) => [p.external_references.find((r) => r.external_id)?.external_id, p.name]));
    expect(byId.get('T1685.005')).toBe(attackLookup().technique('T1685.005').name);
    expect(byId.get('T1999')).toBe('Unknown technique');
  });
});

/** A small Enterprise-like ATT&CK bundle of release `version` with one new technique `T1699` used by group `G0999`. */
function bundle(version: string, techniqueId = 'T1699'): unknown {
  const at = '2027-01-01T00:00:00.000Z';
  const ref = (id: string) => [{ source_name: 'mitre-attack', external_id: id }];
  const common = { spec_version: '2.1', created: at, modified: at };
  return {
    type: 'bundle',
    id: 'bundle--7d7c3d6e-0000-4000-8000-000000000001',
    objects: [
      { ...common, type: 'x-mitre-collection', id: 'x-mitre-collection--7d7c3d6e-0000-4000-8000-000000000002', name: 'Enterprise ATT&CK', x_mitre_version: version },
      { ...common, type: 'x-mitre-tactic', id: 'x-mitre-tactic--7d7c3d6e-0000-4000-8000-000000000003', name: 'Stealth', x_mitre_shortname: 'stealth', external_references: ref('TA0005') },
      {
        ...common,
        type: 'attack-pattern',
        id: 'attack-pattern--7d7c3d6e-0000-4000-8000-000000000004',
        name: 'Brand New Technique',
        kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'stealth' }],
        external_references: ref(techniqueId),
      },
      { ...common, type: 'intrusion-set', id: 'intrusion-set--7d7c3d6e-0000-4000-8000-000000000005', name: 'Newly Tracked Group', external_references: ref('G0999') },
      {
        ...common,
        type: 'relationship',
        id: 'relationship--7d7c3d6e-0000-4000-8000-000000000006',
        relationship_type: 'uses',
        source_ref: 'intrusion-set--7d7c3d6e-0000-4000-8000-000000000005',
        target_ref: 'attack-pattern--7d7c3d6e-0000-4000-8000-000000000004',
      },
    ],
  };
}

describe('attrib load-attack --install: a newer bundle for every service', () => {
  const home = path.join(work, 'home');
  const saved = process.env['VITRINE_HOME'];
  afterAll(() => {
    if (saved === undefined) delete process.env['VITRINE_HOME'];
    else process.env['VITRINE_HOME'] = saved;
    refreshAttackLookup();
  });

  it('installs the knowledge base in the data folder: the core lookup (every service) and attrib resolve its new ids', async () => {
    process.env['VITRINE_HOME'] = home;
    refreshAttackLookup();
    const file = path.join(work, 'enterprise-20.json');
    writeFileSync(file, JSON.stringify(bundle('20.0')));
    const r = await main(['load-attack', file, '--install']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { installed: string; out?: string; metadata: { attack_version: string } };
    expect(out).toMatchObject({ installed: path.join('attack', 'attack-kb.json'), metadata: { attack_version: '20.0' } });
    expect(out.out).toBeUndefined();
    expect(r.stdout).not.toContain(home);
    expect(existsSync(installedKbPath())).toBe(true);

    const lookup = attackLookup();
    expect(lookup.version).toBe('20.0');
    expect(lookup.technique('T1699')).toMatchObject({ name: 'Brand New Technique', status: 'current', version: '20.0' });
    // The shipped releases still name what the new file lacks.
    expect(lookup.technique('T1685.005').status).toBe('current');
    // attrib's default knowledge base is the installed one.
    const installed = loadKb();
    expect(installed.groups.get('G0999')?.name).toBe('Newly Tracked Group');
    expect(extract('They used T1699.', installed).technique_summary[0]).toMatchObject({ id: 'T1699', name: 'Brand New Technique' });
  });

  it('refuses to install an ICS knowledge base or a release older than the shipped one (exit 2), leaving the installed one', async () => {
    process.env['VITRINE_HOME'] = home;
    const ics = path.join(work, 'ics.json');
    writeFileSync(ics, JSON.stringify(bundle('20.0', 'T0899')));
    const r = await main(['load-attack', ics, '--install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('only an Enterprise ATT&CK knowledge base');
    const old = path.join(work, 'old.json');
    writeFileSync(old, JSON.stringify(bundle('15.1')));
    const o = await main(['load-attack', old, '--install']);
    expect(o.code).toBe(2);
    expect(o.stderr).toContain('older than the shipped 18.1');
    refreshAttackLookup();
    expect(attackLookup().version).toBe('20.0');
  });
});
