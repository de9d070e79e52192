// The STIX 2.1 output: valid objects, the intrusion sets and attack patterns of the case, and the same ids for the same case.
import { describe, expect, it } from 'vitest';
import { validateStixObject, type StixObject } from '../core/stix.js';
import { assess, loadKnowledgeGraph, toStix } from './index.js';

const kg = loadKnowledgeGraph();
const apt29 = kg.file.actors.find((a) => a.name === 'APT29');
if (!apt29) throw new Error('APT29 missing');
const kase = {
  case_id: 'stix-1',
  title: 'Cloud tenant compromise',
  techniques: apt29.techniques.slice(0, 15).map((id, i) => ({ evidence_id: `T${i}`, id })),
  software: [{ evidence_id: 'S1', name: 'Mimikatz' }],
};

const ofType = (objects: readonly StixObject[], type: string) => objects.filter((o) => o.type === type);

describe('toStix', () => {
  const bundle = toStix(kg, kase);

  it('is a valid STIX 2.1 bundle', () => {
    expect(bundle.type).toBe('bundle');
    expect(validateStixObject(bundle)).toEqual([]);
    for (const o of bundle.objects) expect(o.spec_version).toBe('2.1');
  });

  it('carries the intrusion sets with aliases and their ATT&CK reference, the observed attack patterns and uses relationships', () => {
    const sets = ofType(bundle.objects, 'intrusion-set');
    const leading = sets.find((s) => s['name'] === 'APT29');
    expect(leading).toBeDefined();
    expect(leading?.['aliases']).toEqual(expect.arrayContaining(['Cozy Bear', 'NOBELIUM']));
    expect(leading?.['external_references']).toContainEqual({ source_name: 'mitre-attack', external_id: 'G0016', url: 'https://attack.mitre.org/groups/G0016' });
    const patterns = ofType(bundle.objects, 'attack-pattern');
    expect(patterns).toHaveLength(15);
    const uses = ofType(bundle.objects, 'relationship').filter((r) => r['source_ref'] === leading?.id);
    expect(uses.length).toBeGreaterThanOrEqual(15);
    expect(ofType(bundle.objects, 'tool').map((t) => t['name'])).toEqual(['Mimikatz']);
  });

  it('carries the assessment in a report and a note that refer to real objects', () => {
    const ids = new Set(bundle.objects.map((o) => o.id));
    const [report] = ofType(bundle.objects, 'report');
    const [note] = ofType(bundle.objects, 'note');
    expect(report?.['report_types']).toEqual(['threat-report']);
    for (const ref of report?.['object_refs'] as string[]) expect(ids.has(ref)).toBe(true);
    for (const ref of note?.['object_refs'] as string[]) expect(ids.has(ref)).toBe(true);
    const assessment = assess(kg, kase);
    expect(note?.['content']).toContain(assessment.confidence.statement);
    expect(note?.['abstract']).toContain('APT29');
    expect(note?.['confidence']).toBe(Math.round(assessment.confidence.probability * 100));
  });

  it('gives the same ids for the same case, and other ids for another case', () => {
    const again = toStix(kg, structuredClone(kase));
    expect(again.id).toBe(bundle.id);
    expect(again.objects.map((o) => o.id)).toEqual(bundle.objects.map((o) => o.id));
    const other = toStix(kg, { ...kase, case_id: 'stix-2', title: 'Another case' });
    expect(other.id).not.toBe(bundle.id);
    // The intrusion set of a group is the same object in every bundle.
    const set = (b: typeof bundle) => ofType(b.objects, 'intrusion-set').find((s) => s['name'] === 'APT29')?.id;
    expect(set(other)).toBe(set(bundle));
  });
});

describe('toStix with indicators and without scored evidence', () => {
  it("types the case's indicators as STIX indicators with patterns, the link back in an external reference", () => {
    const b = toStix(kg, {
      ...kase,
      case_id: 'stix-2',
      indicators: [
        { evidence_id: 'I-1', type: 'ipv4' as const, value: '105.73.6.112:80', source: { service: 'replay', kind: 'story', id: '3', link: '#/replay/story/3' } },
        { evidence_id: 'I-2', type: 'sha256' as const, value: 'a'.repeat(64) },
      ],
    });
    for (const o of b.objects) expect(validateStixObject(o)).toEqual([]);
    const patterns = ofType(b.objects, 'indicator').map((o) => o['pattern']);
    expect(patterns).toEqual([
      "[network-traffic:dst_ref.type = 'ipv4-addr' AND network-traffic:dst_ref.value = '105.73.6.112' AND network-traffic:dst_port = 80]",
      `[file:hashes.'SHA-256' = '${'a'.repeat(64)}']`,
    ]);
    expect(ofType(b.objects, 'indicator')[0]?.['external_references']).toEqual([expect.objectContaining({ description: expect.stringContaining('#/replay/story/3') })]);
  });

  it('an insufficient-evidence assessment says so in the note, with confidence 0', () => {
    const b = toStix(kg, { case_id: 'empty-stix', techniques: [{ evidence_id: 'T-1', id: 'T1999' }] });
    const n = ofType(b.objects, 'note')[0]!;
    expect(n['abstract']).toContain('Insufficient evidence');
    expect(n['confidence']).toBe(0);
  });
});
