import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { CustodyLedger } from '../custody.js';
import { storyEventIds } from '../analysis/analyze.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { techniqueSeverity } from '../analysis/stories.js';
import { TECHNIQUE_IDS, TECHNIQUE_TABLE_RELATIVE, deriveTechniqueTable, forensicResourcesDir } from '../analysis/attack.js';
import { RULE_CONFIDENCE_RELATIVE } from '../analysis/confidence.js';
import { calibrateRules, edgeIsRight, serializeCalibration } from './calibrate.js';
import { SCENARIOS } from './catalog.js';
import { listScenarios, runScenario } from './index.js';

/** Stories whose events count for the measure: the top ones, as many as a reader looks at first. */
export const MEASURE_TOP = 3;
/** Floors the measure must keep (docs/forensic-analysis.md has the measured values). */
const PRECISION_FLOOR = 0.85;
const RECALL_FLOOR = 0.9;

export function measure(name: string): { precision: number; recall: number; techniquesFound: number; techniques: number } {
  const { analysis, truth } = runScenario(name);
  const ids = storyEventIds(analysis, MEASURE_TOP);
  const tp = ids.filter((id) => truth.maliciousEventIds.has(id)).length;
  const tags = new Set(analysis.stories.slice(0, MEASURE_TOP).flatMap((s) => s.techniques.map((t) => t.id)));
  return { precision: ids.length === 0 ? 0 : tp / ids.length, recall: tp / truth.maliciousEventIds.size, techniquesFound: truth.techniques.filter((t) => tags.has(t)).length, techniques: truth.techniques.length };
}

describe('built-in scenarios', () => {
  it('lists the five required scenarios with their hosts, sizes and techniques', () => {
    const list = listScenarios();
    expect(list.map((s) => s.name)).toEqual(['ransomware', 'lateral-movement', 'ssh-bruteforce', 'insider-exfiltration', 'log-clearing']);
    for (const s of list) {
      expect(s.events).toBeGreaterThan(50);
      expect(s.techniques.length).toBeGreaterThan(0);
      for (const t of s.techniques) expect(TECHNIQUE_IDS as readonly string[]).toContain(t);
    }
  });

  it('an unknown scenario is not_found', () => {
    expect(() => runScenario('nope')).toThrow(VitrineError);
    try {
      runScenario('nope');
    } catch (err) {
      expect((err as VitrineError).code).toBe('not_found');
    }
  });

  it('the truth marks only the attack, and runs are reproducible', () => {
    const a = runScenario('ransomware');
    const b = runScenario('ransomware');
    expect([...a.truth.maliciousEventIds].sort()).toEqual([...b.truth.maliciousEventIds].sort());
    expect(a.truth.maliciousEventIds.size).toBeGreaterThan(10);
    expect(a.truth.maliciousEventIds.size).toBeLessThan(a.analysis.counts.events);
    expect(a.analysis.evidence.map((e) => e.kind)).toEqual(['dataset-json']);
  });

  for (const s of SCENARIOS) {
    it(`${s.name}: precision and recall of malicious events in the top ${MEASURE_TOP} stories, and its techniques`, () => {
      const m = measure(s.name);
      expect(m.precision).toBeGreaterThanOrEqual(PRECISION_FLOOR);
      expect(m.recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
      expect(m.techniquesFound).toBe(m.techniques);
    });
  }

  it('records custody in a given ledger and reports progress from ingest to stories', () => {
    const ledger = new CustodyLedger({ actor: 'test' });
    const stages: string[] = [];
    const { analysis } = runScenario('ssh-bruteforce', { ledger, onProgress: (p) => stages.push(p.stage) });
    expect(analysis.ledger).toBe(ledger);
    expect(ledger.records()).toHaveLength(analysis.counts.events + 1);
    expect(ledger.verify()).toBe(true);
    expect([...new Set(stages)]).toEqual(['ingest', 'graph', 'rules', 'anti-forensics', 'stories']);
  });

  it('the log-clearing intruder lowers confidence through the tampering penalty', () => {
    const { analysis } = runScenario('log-clearing');
    expect(analysis.tampering.tampered).toBe(true);
    expect(analysis.tampering.indicators.map((i) => i.kind)).toEqual(expect.arrayContaining(['log-cleared', 'audit-policy-changed', 'system-time-changed', 'timestomping']));
    expect(analysis.stories[0]?.confidence.penalty).toBe(0.5);
  });
});

describe('shipped tables', () => {
  // Golden, written only by `npm run goldens -- forensic-rule-confidence`. The fact it encodes: the shipped table is
  // reproducible from calibration on the built-in scenarios' ground truth (what edgeIsRight below checks by hand).
  it('the rule-confidence table is what calibration on the scenarios gives (npm run goldens -- forensic-rule-confidence rewrites it)', () => {
    const file = path.join(forensicResourcesDir(), RULE_CONFIDENCE_RELATIVE);
    const now = serializeCalibration(calibrateRules());
    expect(readFileSync(file, 'utf8')).toBe(now);
  });

  it('edge claims: technique edges must be all-malicious, plain edges must not mix', () => {
    const bad = new Set(['a', 'b']);
    expect(edgeIsRight({ eventIds: ['a', 'b'], techniques: ['T1'] }, bad)).toBe(true);
    expect(edgeIsRight({ eventIds: ['a', 'c'], techniques: ['T1'] }, bad)).toBe(false);
    expect(edgeIsRight({ eventIds: ['c'], techniques: [] }, bad)).toBe(true);
    expect(edgeIsRight({ eventIds: ['a', 'c'], techniques: [] }, bad)).toBe(false);
  });

  const bundle = path.resolve(forensicResourcesDir(), '..', '..', 'shared', 'corpora', 'cti', 'attack', 'enterprise-attack.json');
  // Golden, written only by `npm run goldens -- forensic-techniques`. The fact it encodes: names and tactics come from
  // MITRE's ATT&CK bundle in the corpora, not from our code.
  it.skipIf(!existsSync(bundle))('the technique table is what the ATT&CK bundle gives (npm run goldens -- forensic-techniques rewrites it)', () => {
    const file = path.join(forensicResourcesDir(), TECHNIQUE_TABLE_RELATIVE);
    const now = `${JSON.stringify(deriveTechniqueTable(JSON.parse(readFileSync(bundle, 'utf8'))), null, 2)}\n`;
    expect(readFileSync(file, 'utf8')).toBe(now);
    // The 18.1 bundle knows every id the rules tag except v19's new ones (T1685.*), which the v19 change set names.
    const inTable = new Set((JSON.parse(now) as { techniques: { id: string }[] }).techniques.map((t) => t.id));
    for (const id of TECHNIQUE_IDS) expect(inTable.has(id) || id.startsWith('T1685')).toBe(true);
  });

  it('every technique the causal rules tag is current in the newest ATT&CK release; the 18.1 ids they replaced still resolve', () => {
    for (const id of TECHNIQUE_IDS) expect([id, attackLookup().technique(id).status]).toEqual([id, 'current']);
    for (const s of listScenarios()) for (const t of s.techniques) expect([t, attackLookup().technique(t).status]).toEqual([t, 'current']);
    for (const [old, now] of [['T1070.001', 'T1685.005'], ['T1070.002', 'T1685.006'], ['T1562.001', 'T1685'], ['T1562.002', 'T1685.001']] as const) {
      expect(attackLookup().technique(old)).toMatchObject({ status: 'revoked', revokedBy: now });
      expect(techniqueSeverity(old)).toBe(techniqueSeverity(now));
    }
  });

  it('the ATT&CK licence ships beside the table', () => {
    expect(readFileSync(path.join(forensicResourcesDir(), 'forensic', 'ATTACK-LICENSE.txt'), 'utf8')).toContain('MITRE');
  });
});
