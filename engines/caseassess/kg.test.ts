// The shipped knowledge graph: rebuilt from the ATT&CK corpus it equals the committed file, holds known facts, and bad graphs fail clearly.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from '../../test/corpora.js';
import type { VitrineError } from '../core/errors.js';
import { refusal } from '../core/errors.fixture.js';
import { buildKnowledgeGraph, serialiseKnowledgeGraph, type AttackIndex } from './build.js';
import { knowledgeGraphFromBytes, parentTechnique, readKnowledgeGraph } from './kg.js';
import { resolveActor } from './index.js';

const KG_FILE = path.join(REPO_ROOT, 'resources', 'caseassess', 'kg.json');
const BUNDLE = corpusPath('cti', 'attack', 'enterprise-attack.json');
const kg = readKnowledgeGraph(KG_FILE);
const actor = (name: string) => {
  const a = kg.file.actors.find((x) => x.name === name);
  if (!a) throw new Error(`no ${name}`);
  return a;
};

describe.runIf(existsSync(BUNDLE))('build from the ATT&CK corpus', () => {
  it('gives exactly the committed kg.json (the shipped graph never drifts from its script)', () => {
    const bundle: unknown = JSON.parse(readFileSync(BUNDLE, 'utf8'));
    const index = JSON.parse(readFileSync(corpusPath('cti', 'attack', 'index.json'), 'utf8')) as AttackIndex;
    const built = serialiseKnowledgeGraph(buildKnowledgeGraph(bundle, { index }));
    expect(built === readFileSync(KG_FILE, 'utf8')).toBe(true);
  }, 60_000);

  it('skips revoked and deprecated groups and techniques', () => {
    const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as { objects: { type: string; revoked?: boolean; x_mitre_deprecated?: boolean; external_references?: { source_name: string; external_id?: string }[] }[] };
    const dead = (type: string) =>
      bundle.objects
        .filter((o) => o.type === type && (o.revoked === true || o.x_mitre_deprecated === true))
        .map((o) => o.external_references?.find((r) => r.source_name === 'mitre-attack')?.external_id)
        .filter((id): id is string => id !== undefined);
    const deadGroups = dead('intrusion-set');
    const deadTechniques = dead('attack-pattern');
    expect(deadGroups.length).toBeGreaterThan(0);
    expect(deadTechniques.length).toBeGreaterThan(0);
    const liveGroupIds = new Set(kg.file.actors.map((a) => a.attack_id));
    // A revoked object may share its id with its live replacement; only ids with no live object must be absent.
    const liveGroups = new Set(bundle.objects.filter((o) => o.type === 'intrusion-set' && o.revoked !== true && o.x_mitre_deprecated !== true).map((o) => o.external_references?.find((r) => r.source_name === 'mitre-attack')?.external_id));
    for (const id of deadGroups) if (!liveGroups.has(id)) expect(liveGroupIds.has(id)).toBe(false);
    const usedTechniques = new Set(kg.file.actors.flatMap((a) => a.techniques));
    for (const t of usedTechniques) expect(kg.techniques.has(t)).toBe(true);
  }, 60_000);
});

describe('the shipped knowledge graph', () => {
  it('names its source and release and counts what it holds', () => {
    expect(kg.file.metadata).toMatchObject({ source: 'MITRE ATT&CK Enterprise', attack_version: '18.1', built_at: '2025-11-12T22:03:39.105Z' });
    expect(kg.file.metadata.actor_count).toBe(kg.file.actors.length);
    expect(kg.file.metadata.technique_count).toBe(kg.file.techniques.length);
    expect(kg.file.actors.length).toBeGreaterThan(150);
    expect(existsSync(path.join(REPO_ROOT, 'resources', 'caseassess', 'ATTACK-LICENSE.txt'))).toBe(true);
  });

  it('holds known ATT&CK facts', () => {
    const apt28 = actor('APT28');
    expect(apt28.attack_id).toBe('G0007');
    expect(apt28.aliases).toEqual(expect.arrayContaining(['Fancy Bear', 'Sofacy', 'STRONTIUM']));
    expect(apt28.sponsor?.value).toBe('Russia');
    expect(apt28.software).toContain('S0023'); // CHOPSTICK
    const apt29 = actor('APT29');
    expect(apt29.attack_id).toBe('G0016');
    expect(apt29.techniques).toContain('T1078');
    expect(apt29.sponsor).toMatchObject({ value: 'Russia', rule: 'sponsor:agency-attribution' });
    expect(actor('Lazarus Group').sponsor?.value).toBe('North Korea');
    expect(actor('Volt Typhoon').active_from?.value).toBe(2021);
    // A criminal group based in Russia has no sponsor state.
    expect(actor('Wizard Spider').sponsor).toBeNull();
    expect(kg.techniques.get('T1059.001')?.name).toBe('PowerShell');
    expect(kg.techniques.get('T1059.001')?.tactics).toEqual(['execution']);
  });

  it('indexes aliases, software names and technique families', () => {
    expect(resolveActor(kg, 'fancy bear')?.attack_id).toBe('G0007');
    expect(resolveActor(kg, 'Cozy Bear')?.attack_id).toBe('G0016');
    expect(resolveActor(kg, 'G0016')?.name).toBe('APT29');
    expect(resolveActor(kg, 'no such actor')).toBeNull();
    expect(kg.softwareByName.get('xagent')).toEqual(['S0023']);
    expect(kg.subTechniques.get('T1059')).toContain('T1059.001');
    expect(parentTechnique('T1059.001')).toBe('T1059');
    expect(parentTechnique('T1059')).toBe('T1059');
    const users = kg.actorsByTechnique.get('T1059.001')?.size ?? 0;
    expect(kg.actorsByFamily.get('T1059')?.size ?? 0).toBeGreaterThanOrEqual(users);
  });

  it('parses the same bytes once', () => {
    const bytes = readFileSync(KG_FILE);
    expect(knowledgeGraphFromBytes(bytes)).toBe(knowledgeGraphFromBytes(Buffer.from(bytes)));
  });
});

describe('a bad knowledge graph', () => {
  const fails = (text: string): VitrineError => refusal(() => knowledgeGraphFromBytes(text));
  it('is rejected with the field path', () => {
    const good = JSON.parse(readFileSync(KG_FILE, 'utf8')) as { actors: { techniques: string[] }[] };
    (good.actors[3] as { techniques: string[] }).techniques.push('not-a-technique');
    const err = fails(JSON.stringify(good));
    expect(err.code).toBe('validation_failed');
    expect(err.message).toMatch(/^invalid knowledge graph at actors\[3\]\.techniques\[\d+\]/);
    expect(err.message).not.toContain('not-a-technique');
  });
  it('says so when it is not JSON, or not a graph, or a file that cannot be read', () => {
    expect(fails('{nope').message).toBe('the knowledge graph is not valid JSON');
    expect(fails('{"format":"other"}').code).toBe('validation_failed');
    expect(() => readKnowledgeGraph('/nonexistent/kg.json')).toThrow(/cannot be read/);
    try {
      readKnowledgeGraph('/nonexistent/kg.json');
    } catch (err) {
      expect((err as Error).message).not.toContain('nonexistent');
    }
  });
  it('refuses an actor listed twice', () => {
    const good = JSON.parse(readFileSync(KG_FILE, 'utf8')) as { actors: unknown[] };
    good.actors.push(good.actors[0]);
    expect(fails(JSON.stringify(good)).message).toMatch(/appears twice/);
  });
});
