// The assessment as a STIX 2.1 bundle: intrusion sets, observed attack patterns and software, `uses` relationships, a report and a note.
import type { Assessment, CaseFile, Hypothesis } from '../core/contracts/caseassess.js';
import { stixPatternOf } from '../core/findings.js';
import { attackPattern, bundle, identity, indicator, intrusionSet, malware, note, relationship, report, tool, type StixBundle, type StixObject } from '../core/stix.js';
import type { KnowledgeGraph } from './kg.js';

/** How many listed-actor hypotheses the bundle carries (the leading one and the next ones). */
export const STIX_ACTORS = 5;

/**
 * Builds the bundle. Every timestamp is the knowledge graph's build date, so the same case against the same graph
 * gives the same bytes and the same ids (the stored history records when an assessment ran).
 */
export function assessmentToStix(kg: KnowledgeGraph, kase: CaseFile, assessment: Assessment): StixBundle {
  const when = kg.file.metadata.built_at;
  const author = identity({ name: 'Vitrine case assessment', identity_class: 'system' }, { created: when });
  const common = { created: when, created_by_ref: author.id } as const;
  const objects: StixObject[] = [author];

  const hypotheses = [assessment.leading, ...assessment.alternatives].filter((h) => h.kind === 'actor').slice(0, STIX_ACTORS);
  const actorSdo = new Map<string, StixObject>();
  for (const h of hypotheses) {
    const actor = kg.file.actors.find((a) => a.attack_id === h.attack_id);
    if (!actor) continue;
    const sdo = intrusionSet(
      {
        name: actor.name,
        ...(/^G\d{4}$/.test(actor.attack_id) ? { mitre_id: actor.attack_id } : {}),
        ...(actor.aliases.length > 0 ? { aliases: [actor.name, ...actor.aliases] } : {}),
        ...(actor.active_from ? { first_seen: `${actor.active_from.value}-01-01T00:00:00.000Z` } : {}),
      },
      common,
    );
    actorSdo.set(actor.attack_id, sdo);
    objects.push(sdo);
  }

  const observedTechniques = new Map<string, StixObject>();
  const observedSoftware = new Map<string, StixObject>();
  for (const row of assessment.evidence) {
    if (row.status !== 'scored' || row.resolved_id === null) continue;
    if (row.kind === 'technique' && !observedTechniques.has(row.resolved_id)) {
      const t = kg.techniques.get(row.resolved_id);
      if (!t) continue;
      const sdo = attackPattern(
        { name: t.name, mitre_id: t.id, ...(t.tactics.length > 0 ? { kill_chain_phases: t.tactics.map((phase_name) => ({ kill_chain_name: 'mitre-attack', phase_name })) } : {}) },
        common,
      );
      observedTechniques.set(t.id, sdo);
      objects.push(sdo);
    } else if (row.kind === 'software' && !observedSoftware.has(row.resolved_id)) {
      const s = kg.software.get(row.resolved_id);
      if (!s) continue;
      const ref = { external_references: [{ source_name: 'mitre-attack', external_id: s.id, url: `https://attack.mitre.org/software/${s.id}` }] };
      const aliases = s.aliases.length > 0 ? { aliases: [s.name, ...s.aliases] } : {};
      const sdo = s.type === 'malware' ? malware({ name: s.name, is_family: true, ...aliases }, { ...common, ...ref }) : tool({ name: s.name, ...aliases }, { ...common, ...ref });
      observedSoftware.set(s.id, sdo);
      objects.push(sdo);
    }
  }

  // `uses` only where the knowledge graph says so: the bundle never asserts more than ATT&CK does.
  for (const h of hypotheses) {
    const actor = kg.file.actors.find((a) => a.attack_id === h.attack_id);
    const source = actorSdo.get(h.attack_id);
    if (!actor || !source) continue;
    for (const [id, target] of observedTechniques)
      if (actor.techniques.includes(id)) objects.push(relationship({ relationship_type: 'uses', source_ref: source.id, target_ref: target.id }, common));
    for (const [id, target] of observedSoftware)
      if (actor.software.includes(id)) objects.push(relationship({ relationship_type: 'uses', source_ref: source.id, target_ref: target.id }, common));
  }

  // The case's indicators as STIX indicators (each with its pattern), so they travel with the assessment.
  for (const i of kase.indicators ?? []) {
    objects.push(
      indicator(
        { pattern: stixPatternOf(i), valid_from: when, name: `${i.type} ${i.value}`.slice(0, 300), indicator_types: ['unknown'], ...(i.note !== undefined ? { description: i.note.slice(0, 2000) } : {}) },
        { ...common, ...(i.source?.link !== undefined ? { external_references: [{ source_name: `vitrine-${i.source.service}`, external_id: i.source.id, description: `${i.source.kind} ${i.source.id} (${i.source.link})` }] } : {}) },
      ),
    );
  }

  const leadingRef = actorSdo.get(assessment.leading.attack_id);
  const subject = kase.title ?? kase.case_id;
  const ranked = [assessment.leading, ...assessment.alternatives].map(
    (h: Hypothesis) => `${h.rank}. ${h.name}${h.kind === 'actor' ? ` (${h.attack_id})` : ''}: score ${h.score}, probability ${(h.probability * 100).toFixed(1)}%`,
  );
  const insufficient = assessment.confidence.insufficient;
  const content = [
    assessment.confidence.statement,
    '',
    insufficient
      ? `Insufficient evidence: ${insufficient.reason} What would help: ${insufficient.would_help.join('; ')}.`
      : `Words of estimative probability (ICD 203): ${assessment.confidence.words}, band ${assessment.confidence.band[0]}-${assessment.confidence.band[1]}; analytic confidence ${assessment.confidence.analytic_confidence}.`,
    'Probabilities are normalised scores (softmax over all hypotheses, including an unlisted actor), not calibrated probabilities.',
    '',
    ...ranked,
  ].join('\n');
  const refs = objects.filter((o) => o.type !== 'identity').map((o) => o.id);
  const assessmentNote = note(
    {
      abstract: insufficient ? 'Insufficient evidence: no evidence item could be scored' : assessment.leading.kind === 'actor' ? `Leading hypothesis: ${assessment.leading.name} (${assessment.confidence.words})` : `No listed actor leads (${assessment.confidence.words})`,
      content,
      object_refs: leadingRef ? [leadingRef.id] : refs.length > 0 ? refs : [author.id],
      authors: ['Vitrine case assessment'],
    },
    { ...common, confidence: insufficient ? 0 : Math.round(assessment.confidence.probability * 100) },
  );
  objects.push(assessmentNote);
  const caseReport = report(
    {
      name: `Case assessment: ${subject}`,
      published: when,
      report_types: ['threat-report'],
      description: assessment.confidence.statement,
      object_refs: [...refs, assessmentNote.id],
    },
    { ...common, external_references: [{ source_name: 'vitrine-case', external_id: kase.case_id, description: `case file SHA-256 ${assessment.case_sha256}` }] },
  );
  objects.push(caseReport);
  return bundle(objects);
}
