// An ACH assessment as a STIX 2.1 bundle: the author, intrusion sets for actor hypotheses, attack patterns of the evidence, a report, the matrix and each override as notes.
import { attackLookup } from '../../core/attack/lookup.js';
import type { AchAssessment, AchStrength } from '../../core/contracts/ach.js';
import { attackPattern, bundle, identity, intrusionSet, note, report, type StixBundle, type StixObject } from '../../core/stix.js';

/**
 * Time of the objects that do not change between assessments (author, intrusion sets, attack patterns):
 * one fixed value, so one actor is one STIX object with one `created` in every bundle and in the TAXII collections.
 */
export const REFERENCE_TIME = '2026-01-01T00:00:00.000Z';

/** STIX confidence (0-100) of the report from the ACH strength. */
export const STRENGTH_CONFIDENCE: Readonly<Record<AchStrength, number>> = { tie: 10, weak: 30, moderate: 60, strong: 85 };

export interface AchStixOptions {
  /** ATT&CK technique name and tactics by id (from the knowledge base); without it the id is the name and there are no kill-chain phases. */
  readonly technique?: (id: string) => { readonly name: string; readonly tactics: readonly string[] } | undefined;
}

function matrixText(a: AchAssessment): string {
  const hs = a.hypotheses.map((h) => h.id);
  const lines = [
    `Question: ${a.scenario.question ?? a.scenario.title}`,
    '',
    'Hypotheses (least inconsistent first; weighted inconsistency, weighted consistency):',
    ...a.hypotheses.map((h) => `  ${h.rank}. ${h.id} ${h.title}: ${h.inconsistency}, ${h.consistency}`),
    '',
    `Matrix (ratings CC C N I II NA; weight = credibility x relevance; columns ${hs.join(' ')}):`,
    ...a.evidence.map((e) => {
      const cells = hs.map((hid) => {
        const c = e.cells.find((x) => x.hypothesis === hid);
        return c ? `${c.rating}${c.source === 'override' ? '*' : ''}` : '-';
      });
      return `  ${e.id} [w ${e.weight}, diag ${e.diagnosticity}] ${cells.join(' ')}  ${e.summary}`;
    }),
    '',
    'Sensitivity (leader if the item were discarded / read the opposite way):',
    ...a.sensitivity.map((s) => `  ${s.evidence}: ${s.leader_if_removed ?? 'same'} / ${s.leader_if_reversed ?? 'same'}${s.critical ? '  CRITICAL' : ''}`),
  ];
  if (a.overrides.length > 0) lines.push('', '* analyst override');
  return lines.join('\n');
}

/** Builds the bundle; a bundled scenario without overrides always gives the same bundle (its `as_of` is the report's time). */
export function assessmentToStix(a: AchAssessment, options: AchStixOptions = {}): StixBundle {
  const when = a.overrides.length === 0 && a.scenario.as_of !== undefined ? a.scenario.as_of : a.assessed_at;
  const author = identity({ name: 'Vitrine attribution (ACH)', identity_class: 'system' }, { created: REFERENCE_TIME });
  const reference = { created: REFERENCE_TIME, created_by_ref: author.id } as const;
  const objects: StixObject[] = [author];

  const actorObjects = new Map<string, StixObject>();
  for (const h of a.hypotheses) {
    if (!h.actor) continue;
    const actor = h.actor;
    const names = [actor.name, ...(actor.aliases ?? [])];
    const sdo = intrusionSet(
      {
        name: actor.name,
        ...(actor.attack_id !== undefined ? { mitre_id: actor.attack_id } : {}),
        ...(names.length > 1 ? { aliases: names } : {}),
        ...(actor.description !== undefined ? { description: actor.description } : {}),
      },
      reference,
    );
    actorObjects.set(h.id, sdo);
    objects.push(sdo);
  }

  const techniques = [...new Set(a.evidence.flatMap((e) => e.techniques))].sort();
  const patterns = techniques.map((t) => {
    // Named by the knowledge base, else by whichever ATT&CK release knows the id; an id none knows is "Unknown technique", never its own name.
    const known = options.technique?.(t) ?? attackLookup().technique(t);
    const phases = (known?.tactics ?? []).map((phase_name) => ({ kill_chain_name: 'mitre-attack', phase_name }));
    return attackPattern({ name: known.name, mitre_id: t, ...(phases.length > 0 ? { kill_chain_phases: phases } : {}) }, reference);
  });
  objects.push(...patterns);

  const leader = a.hypotheses[0]!;
  const leaderObject = actorObjects.get(leader.id);
  const common = { created: when, created_by_ref: author.id } as const;
  const assessmentReport = report(
    {
      name: `ACH: ${a.scenario.title}`,
      published: when,
      report_types: ['threat-actor', 'attack-pattern'],
      description: a.conclusion,
      object_refs: [...(leaderObject ? [leaderObject.id] : []), ...[...actorObjects.values()].filter((o) => o !== leaderObject).map((o) => o.id), ...patterns.map((p) => p.id), author.id],
    },
    { ...common, confidence: STRENGTH_CONFIDENCE[a.strength], labels: ['ach', `leader:${a.leader}`, `strength:${a.strength}`] },
  );
  objects.push(assessmentReport);
  objects.push(
    note(
      {
        abstract: `ACH matrix of ${a.hypotheses.length} hypotheses and ${a.evidence.length} evidence items`,
        content: matrixText(a),
        object_refs: [assessmentReport.id, ...actorObjects.values()].map((o) => (typeof o === 'string' ? o : o.id)),
        authors: ['Vitrine attribution (ACH)'],
      },
      common,
    ),
  );
  for (const o of a.overrides) {
    objects.push(
      note(
        {
          abstract: `Analyst override ${o.evidence}:${o.hypothesis}=${o.rating}`,
          content: `${o.by} rated evidence ${o.evidence} against hypothesis ${o.hypothesis} as ${o.rating} (was ${o.previous}) at ${o.at}.${o.reason !== undefined ? ` Reason: ${o.reason}` : ''}`,
          object_refs: [assessmentReport.id, ...(actorObjects.has(o.hypothesis) ? [actorObjects.get(o.hypothesis)!.id] : [])],
          authors: [o.by],
        },
        { created_by_ref: author.id, created: o.at },
      ),
    );
  }
  return bundle(objects);
}
