// ATT&CK in the forensic analysis: the techniques the causal rules and anti-forensics scan tag (their shipped table), and
// every technique id named through the one ATT&CK lookup of engines/core/attack; kill-chain stages in causal order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ATTACK_LICENCE, parseAttackBundle } from '../../core/attack/bundle.js';
import { attackLookup } from '../../core/attack/lookup.js';
import type { KillChainStage, TechniqueTag } from '../../core/contracts/forensic.js';
import { findResourcesDir } from '../../core/resources.js';

/** Every technique id a causal rule or indicator may tag, in current (ATT&CK v19) terms: log clearing is T1685.005/.006,
 * disabling tools T1685, disabling logging T1685.001 (18.1's T1070.001/.002 and T1562.001/.002, which the lookup still
 * resolves, as revoked, to these). The shipped 18.1 table holds the ones 18.1 knows. */
export const TECHNIQUE_IDS = [
  'T1003.001', 'T1005', 'T1021', 'T1021.001', 'T1021.002', 'T1021.004', 'T1021.006', 'T1033', 'T1041', 'T1047', 'T1048',
  'T1053.003', 'T1053.005', 'T1055', 'T1059.001', 'T1059.003', 'T1059.004', 'T1070', 'T1685.005', 'T1685.006', 'T1070.003',
  'T1070.004', 'T1070.006', 'T1071', 'T1074.001', 'T1095', 'T1078', 'T1082', 'T1087.001', 'T1098', 'T1098.004', 'T1105', 'T1110',
  'T1110.001', 'T1110.003', 'T1136.001', 'T1218.005', 'T1218.011', 'T1486', 'T1490', 'T1543.002', 'T1543.003', 'T1547.001',
  'T1548.003', 'T1560.001', 'T1685', 'T1685.001', 'T1567.002', 'T1569.002', 'T1570',
] as const;

/** The shipped table's location below resources/. */
export const TECHNIQUE_TABLE_RELATIVE = path.join('forensic', 'attack-techniques.json');

export interface TechniqueTable {
  readonly source: string;
  readonly licence: string;
  readonly techniques: readonly TechniqueTag[];
}

/** The resources/ folder of this checkout or installed package: ../../../resources from the sources, one more up from dist/. */
export function forensicResourcesDir(): string {
  return findResourcesDir(TECHNIQUE_TABLE_RELATIVE);
}

/** Derives the table from an ATT&CK Enterprise STIX bundle (the generator; the test checks the shipped file is current). */
export function deriveTechniqueTable(bundle: unknown, ids: readonly string[] = TECHNIQUE_IDS): TechniqueTable {
  const wanted = new Set(ids);
  const kb = parseAttackBundle(bundle);
  const techniques = kb.techniques.filter((t) => wanted.has(t.id) && t.deprecated !== true).map((t) => ({ id: t.id, name: t.name, tactics: [...t.tactics] }));
  return {
    source: 'MITRE ATT&CK Enterprise (../shared/corpora/cti/attack/enterprise-attack.json), techniques the forensic rules tag',
    licence: ATTACK_LICENCE,
    techniques: techniques.sort((a, b) => a.id.localeCompare(b.id)),
  };
}

let cached: ReadonlyMap<string, TechniqueTag> | null = null;

/** The shipped table by id (read once). A missing table gives names equal to the ids, never an error. */
export function techniqueTable(): ReadonlyMap<string, TechniqueTag> {
  if (cached) return cached;
  const map = new Map<string, TechniqueTag>();
  try {
    const table = JSON.parse(readFileSync(path.join(forensicResourcesDir(), TECHNIQUE_TABLE_RELATIVE), 'utf8')) as TechniqueTable;
    for (const t of table.techniques) map.set(t.id, t);
  } catch {
    // Tags then carry the id only; the table test catches a missing file.
  }
  cached = map;
  return map;
}

/** The tag of a technique id from the one ATT&CK lookup (every release it knows): its name (revoked ids marked with
 * their replacement, ids no release knows as `Unknown technique`) and its tactics in kill-chain order. */
export function techniqueTag(id: string): TechniqueTag {
  const r = attackLookup().technique(id);
  const name = attackLookup().label(id);
  return {
    id: r.id,
    name,
    tactics: [...r.tactics],
    ...(r.status !== 'current' ? { status: r.status } : {}),
    ...(r.revokedBy !== undefined ? { revokedBy: r.revokedBy } : {}),
  };
}

/** The kill-chain stages in causal order (Stealth and Defense Impairment, ATT&CK v19's split of Defense Evasion, where it was). */
export const KILL_CHAIN_STAGES: readonly KillChainStage[] = [
  'reconnaissance', 'initial-access', 'execution', 'persistence', 'privilege-escalation', 'stealth', 'defense-impairment', 'defense-evasion',
  'credential-access', 'discovery', 'lateral-movement', 'collection', 'exfiltration', 'impact',
];

const isStage = (t: string): t is KillChainStage => (KILL_CHAIN_STAGES as readonly string[]).includes(t);

/** Kill-chain stage of a technique: its first ATT&CK tactic that is a stage (command-and-control and resource-development are none). */
export function stageOf(id: string): KillChainStage | null {
  for (const t of techniqueTag(id).tactics) if (isStage(t)) return t;
  return null;
}

/** The earliest kill-chain stage among tactic short names (a rule's own attack.<tactic> tags), or null. */
export function stageOfTactics(tactics: readonly string[]): KillChainStage | null {
  let best: KillChainStage | null = null;
  for (const t of tactics) if (isStage(t) && (best === null || stageOrder(t) < stageOrder(best))) best = t;
  return best;
}

/** Stages in causal order (for sorting a story's stages). */
export function stageOrder(stage: KillChainStage): number {
  return KILL_CHAIN_STAGES.indexOf(stage);
}
