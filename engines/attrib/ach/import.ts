// A STIX 2.1 bundle as an ACH scenario: intrusion sets, threat actors and unattributed campaigns become hypotheses; attack patterns, malware,
// tools, infrastructure, indicators and attributed campaigns become evidence, rated consistent (C) with the hypotheses the bundle's own
// relationships tie them to. An "another actor" hypothesis is always added. The summary says what was mapped and what was skipped, and why.
import type { AchActor, AchEvidence, AchHypothesis, AchScenario } from '../../core/contracts/ach.js';
import type { StixImportSummary } from '../../core/contracts/findings.js';
import { VitrineError } from '../../core/errors.js';
import { attackIdOf, attackTechniqueId, displayName, externalIdOf, patternValues, readImportBundle, scoValue } from '../../core/stix-import.js';
import { stixTimestamp, type StixObject } from '../../core/stix.js';
import { MAX_EVIDENCE, MAX_HYPOTHESES, parseScenario } from './scenario.js';
import { C0_DEL, stripControlCharacters } from '../../core/control-characters.js';

export interface StixScenario {
  readonly scenario: AchScenario;
  readonly summary: StixImportSummary;
}

/** Always added: Heuer's advice to keep the hypothesis nobody has named yet. */
export const OTHER_HYPOTHESIS: AchHypothesis = { id: 'H-OTHER', title: 'Another actor, not named in the bundle' };
/** Added when the bundle names fewer than one actor: ACH needs two competing hypotheses. */
export const NULL_HYPOTHESIS: AchHypothesis = { id: 'H-NULL', title: 'Not hostile activity (benign, or a false positive)' };

const ACTOR_TYPES = new Set(['intrusion-set', 'threat-actor']);
const EVIDENCE_AS: Readonly<Record<string, AchEvidence['type']>> = { 'attack-pattern': 'technique', malware: 'malware', tool: 'malware', infrastructure: 'infrastructure', indicator: 'indicator' };

const SKIP_REASONS: Readonly<Record<string, string>> = {
  identity: 'authors and people are not evidence (a threat actor attributed to a person stays one hypothesis)',
  'course-of-action': 'a defence, not evidence about who did it',
  vulnerability: 'a targeted vulnerability does not tell the actors apart in this bundle',
  'marking-definition': 'a data marking, not evidence',
  report: 'a container: its objects are read themselves',
  note: 'analyst commentary, not evidence',
  opinion: 'analyst commentary, not evidence',
  grouping: 'a container of other objects',
  'observed-data': 'observed-data wraps observables by reference; give an indicator',
  sighting: 'a sighting repeats its indicator, which is evidence itself',
  location: 'a location is context, not rated against actors',
  incident: 'an incident has no matrix row',
};

export function printable(text: string, max: number): string {
  return stripControlCharacters(text, C0_DEL).trim().slice(0, max);
}

/** The bundle as a scenario (validated like any scenario); 422 when it is not STIX 2.1 or nothing in it can be evidence. */
export function stixToScenario(value: unknown): StixScenario {
  const bundle = readImportBundle(value);
  const { tally } = bundle;
  const rels = bundle.relationships;
  const typeOf = (id: unknown): string | undefined => bundle.byId.get(String(id))?.type;

  // Campaigns attributed to an actor of the bundle fold into that actor; the others stand as hypotheses of their own.
  const attributedTo = new Map<string, Set<string>>();
  for (const r of rels)
    if (r['relationship_type'] === 'attributed-to' && typeOf(r['source_ref']) === 'campaign' && ACTOR_TYPES.has(typeOf(r['target_ref']) ?? '')) {
      const set = attributedTo.get(String(r['source_ref'])) ?? new Set<string>();
      set.add(String(r['target_ref']));
      attributedTo.set(String(r['source_ref']), set);
    }
  const principals = bundle.objects.filter((o) => ACTOR_TYPES.has(o.type) || (o.type === 'campaign' && !attributedTo.has(o.id)));
  const principalSet = new Set(principals);
  const kept = principals.slice(0, MAX_HYPOTHESES - 2);
  for (const o of principals.slice(MAX_HYPOTHESES - 2)) tally.skipped(o.type, `more than ${MAX_HYPOTHESES - 2} actors and campaigns`, o.id);
  const hypothesisOf = new Map<string, string>(kept.map((o, i) => [o.id, `H${i + 1}`]));
  // An attributed campaign speaks for its actors.
  const principalsOf = (id: string): string[] => (hypothesisOf.has(id) ? [id] : [...(attributedTo.get(id) ?? [])].filter((a) => hypothesisOf.has(a)));

  // What each hypothesis is tied to: uses (actor/campaign -> pattern, malware, tool, infrastructure), indicates (indicator -> actor, campaign, malware...).
  const tiedTo = new Map<string, Set<string>>();
  const usedRelationships = new Set<string>();
  // An intrusion set attributed to a threat actor: what the set did, the actor did too.
  const actorAttribution = new Map<string, string[]>();
  for (const r of rels)
    if (r['relationship_type'] === 'attributed-to' && ACTOR_TYPES.has(typeOf(r['source_ref']) ?? '') && hypothesisOf.has(String(r['target_ref']))) {
      actorAttribution.set(String(r['source_ref']), [...(actorAttribution.get(String(r['source_ref'])) ?? []), String(r['target_ref'])]);
      usedRelationships.add(r.id);
    }
  const tie = (objectId: string, principal: string, rel: StixObject): void => {
    const set = tiedTo.get(objectId) ?? new Set<string>();
    set.add(principal);
    for (const up of actorAttribution.get(principal) ?? []) set.add(up);
    tiedTo.set(objectId, set);
    usedRelationships.add(rel.id);
  };
  for (const r of rels) {
    const src = String(r['source_ref']);
    const dst = String(r['target_ref']);
    if (r['relationship_type'] === 'uses') for (const p of principalsOf(src)) tie(dst, p, r);
    if (r['relationship_type'] === 'attributed-to' && attributedTo.has(src)) usedRelationships.add(r.id);
  }
  // Second hop: an indicator of a malware (or of a campaign, an actor) is tied to whoever uses it.
  for (const r of rels) {
    if (r['relationship_type'] !== 'indicates') continue;
    const src = String(r['source_ref']);
    const dst = String(r['target_ref']);
    for (const p of principalsOf(dst)) tie(src, p, r);
    for (const p of tiedTo.get(dst) ?? []) tie(src, p, r);
  }

  const actors: AchActor[] = [];
  const hypotheses: AchHypothesis[] = [];
  for (const o of kept) {
    const hid = hypothesisOf.get(o.id)!;
    const name = displayName(o);
    const gid = attackIdOf(o);
    const techniques = [...new Set(rels.filter((r) => r['relationship_type'] === 'uses' && principalsOf(String(r['source_ref'])).includes(o.id)).map((r) => bundle.byId.get(String(r['target_ref']))).filter((t): t is StixObject => t?.type === 'attack-pattern').map(attackTechniqueId).filter((t): t is string => t !== undefined))].sort();
    const aliases = Array.isArray(o['aliases']) ? [...new Set((o['aliases'] as unknown[]).filter((a): a is string => typeof a === 'string').map((a) => printable(a, 200)).filter((a) => a !== '' && a !== name))].slice(0, 50) : [];
    const description = typeof o['description'] === 'string' ? printable(o['description'], 4000) : '';
    if (o.type === 'campaign') {
      hypotheses.push({ id: hid, title: printable(`Campaign ${name}`, 300), ...(description !== '' ? { description } : {}) });
      tally.mapped(o.type, 'hypothesis (a campaign attributed to no actor of the bundle)', o.id);
    } else {
      actors.push({ id: `A${hid.slice(1)}`, name, ...(gid !== undefined && /^G\d{4}$/.test(gid) ? { attack_id: gid } : {}), ...(aliases.length > 0 ? { aliases } : {}), ...(techniques.length > 0 ? { techniques } : {}), ...(description !== '' ? { description } : {}) });
      hypotheses.push({ id: hid, title: printable(`${o.type === 'intrusion-set' ? 'Intrusion set' : 'Threat actor'} ${name}`, 300), actor: `A${hid.slice(1)}` });
      tally.mapped(o.type, 'hypothesis', o.id);
    }
  }
  hypotheses.push(OTHER_HYPOTHESIS);
  if (hypotheses.length < 2) hypotheses.push(NULL_HYPOTHESIS);

  const evidence: AchEvidence[] = [];
  // Tied by the bundle: consistent with those hypotheses, inconsistent with "another actor" and "not hostile"; the other named ones stay derived or neutral.
  const fallbacks = hypotheses.filter((h) => h === OTHER_HYPOTHESIS || h === NULL_HYPOTHESIS).map((h) => h.id);
  const ratingsFor = (objectId: string): Record<string, 'C' | 'I'> => {
    const out: Record<string, 'C' | 'I'> = {};
    for (const p of tiedTo.get(objectId) ?? []) out[hypothesisOf.get(p)!] = 'C';
    if (Object.keys(out).length > 0) for (const h of fallbacks) out[h] = 'I';
    return out;
  };
  const credibility = (o: StixObject): { credibility?: number } => (typeof o['confidence'] === 'number' ? { credibility: Math.round(o['confidence']) / 100 } : {});
  const push = (o: StixObject, item: Omit<AchEvidence, 'id'>, as: string): void => {
    if (evidence.length >= MAX_EVIDENCE) {
      tally.skipped(o.type, `more than ${MAX_EVIDENCE} evidence items`, o.id);
      return;
    }
    evidence.push({ id: `E${evidence.length + 1}`, ...item });
    tally.mapped(o.type, as, o.id);
  };
  const src = printable(`STIX ${bundle.id}`, 300);

  for (const o of bundle.objects) {
    if (principalSet.has(o)) continue;
    const ratings = ratingsFor(o.id);
    const rated = Object.keys(ratings).length > 0 ? { ratings } : {};
    const kind = EVIDENCE_AS[o.type];
    if (o.type === 'campaign') {
      const to = [...(attributedTo.get(o.id) ?? [])].map((a) => displayName(bundle.byId.get(a)!, 80));
      const r: Record<string, 'CC' | 'II'> = {};
      for (const a of attributedTo.get(o.id) ?? []) if (hypothesisOf.has(a)) r[hypothesisOf.get(a)!] = 'CC';
      if (Object.keys(r).length > 0) for (const h of fallbacks) r[h] = 'II';
      push(o, { summary: printable(`Campaign ${displayName(o)} is attributed to ${to.join(', ')} in the bundle`, 1000), source: src, type: 'context', ...credibility(o), ...(Object.keys(r).length > 0 ? { ratings: r } : {}) }, 'evidence (context: an attributed campaign, very consistent with its actor)');
    } else if (kind === 'technique') {
      const t = attackTechniqueId(o);
      const other = externalIdOf(o);
      const label = t ?? other;
      push(o, { summary: printable(`Attack pattern ${displayName(o)}${label !== undefined ? ` (${label})` : ''}`, 1000), source: src, type: 'technique', ...(t !== undefined ? { techniques: [t] } : {}), ...credibility(o), ...rated }, t !== undefined ? 'evidence (technique, with its ATT&CK id)' : 'evidence (technique without an ATT&CK id: rated only where the bundle ties it to an actor)');
    } else if (kind === 'malware' || kind === 'infrastructure') {
      push(o, { summary: printable(`${o.type === 'tool' ? 'Tool' : o.type === 'malware' ? 'Malware' : 'Infrastructure'} ${displayName(o)}`, 1000), source: src, type: kind, ...credibility(o), ...rated }, `evidence (${kind})`);
    } else if (kind === 'indicator') {
      const values = patternValues(String(o['pattern']), String(o['pattern_type'])).values;
      const shown = values.length > 0 ? values.slice(0, 4).map((v) => `${v.type} ${v.value}`).join(', ') + (values.length > 4 ? ` and ${values.length - 4} more` : '') : String(o['pattern']).slice(0, 300);
      const name = typeof o['name'] === 'string' ? `${printable(o['name'], 200)}: ` : '';
      push(o, { summary: printable(`Indicator ${name}${shown}`, 1000), source: src, type: 'indicator', ...credibility(o), ...rated }, 'evidence (indicator)');
    } else if (o.type === 'relationship') {
      if (usedRelationships.has(o.id)) tally.mapped(o.type, 'ratings (ties evidence to a hypothesis) or folds a campaign into its actor', o.id);
      else tally.skipped(o.type, `"${String(o['relationship_type']).slice(0, 40)}" between objects that are not a hypothesis and its evidence`, o.id);
    } else {
      const v = scoValue(o);
      if (v !== undefined) push(o, { summary: printable(`Observed ${v.type} ${v.value}`, 1000), source: src, type: 'indicator', ...rated }, 'evidence (observable)');
      else tally.skipped(o.type, SKIP_REASONS[o.type] ?? 'no matrix row holds this type', o.id);
    }
  }
  if (evidence.length === 0)
    throw new VitrineError('validation_failed', 'nothing in the bundle can be evidence (no attack pattern, malware, tool, infrastructure, indicator, attributed campaign or observable)');

  const short = bundle.id.slice('bundle--'.length, 'bundle--'.length + 8);
  const report = bundle.objects.find((o) => o.type === 'report');
  const title = printable(report !== undefined ? `${displayName(report, 260)} (STIX)` : `STIX bundle ${short}`, 300);
  const scenario = parseScenario(
    {
      format: 'vitrine-ach/1',
      name: `stix-${short}`,
      title,
      question: 'Who is behind the activity this bundle describes?',
      description: printable(`Imported from STIX 2.1 bundle ${bundle.id}. Ratings: C where the bundle's relationships tie the evidence to a hypothesis (I for another actor and not hostile), CC for a campaign attributed to an actor (II for those two), else derived from the actors' ATT&CK techniques or neutral.`, 4000),
      ...(bundle.newest !== undefined ? { as_of: stixTimestamp(bundle.newest) } : {}),
      ...(actors.length > 0 ? { actors } : {}),
      hypotheses,
      evidence,
    },
    'imported scenario',
  );
  return { scenario, summary: tally.summary(bundle.id, bundle.count) };
}
