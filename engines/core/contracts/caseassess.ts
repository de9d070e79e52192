// Types of the case assessment service's files and HTTP bodies (/svc/caseassess/*), shared with the renderer (types only).
import type { FindingSource, IndicatorType, StixImportSummary } from './findings.js';

// ---------------------------------------------------------------- the case file (what the analyst hands over)

/** Fields every evidence item carries. */
export interface CaseEvidenceItem {
  /** The analyst's own id for this piece of evidence, unique within the case (`E1`, `ev-017`). */
  readonly evidence_id: string;
  /** How sure the analyst is that the observation is real and correctly identified, 0..1; default 1. Scales the item's weight. */
  readonly confidence?: number;
  /** Free text: where it was seen, by whom. Not scored. */
  readonly note?: string;
  /** Where it came from when another workspace sent it or a STIX bundle was imported (service, kind, id, link back). Not scored. */
  readonly source?: FindingSource;
}

/** An observed ATT&CK technique or sub-technique. */
export interface CaseTechnique extends CaseEvidenceItem {
  /** `T1059` or `T1059.001`. An id the knowledge graph does not know is a warning, not an error. */
  readonly id: string;
}

/** Observed software: an ATT&CK S-id, or a name or alias (`Mimikatz`, `X-Agent`); at least one of the two. */
export interface CaseSoftware extends CaseEvidenceItem {
  /** `S0002` */
  readonly id?: string;
  /** A name or alias, matched without regard to case, spaces or punctuation. */
  readonly name?: string;
}

export type { IndicatorType };

/** An observed indicator of compromise. Scored only when the knowledge graph links it to actors (the shipped ATT&CK graph has none). */
export interface CaseIndicator extends CaseEvidenceItem {
  readonly type: IndicatorType;
  readonly value: string;
}

/** A sector of the victim (`government`, `energy`, `financial`...); synonyms are normalised to the knowledge graph's vocabulary. */
export interface CaseSector extends CaseEvidenceItem {
  readonly name: string;
}

/** A country or region of the victim (`Ukraine`, `Europe`, `Middle East`). */
export interface CaseRegion extends CaseEvidenceItem {
  readonly name: string;
}

/** When the activity took place. Dates are `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; either end may be omitted but not both. */
export interface CaseTimeWindow extends CaseEvidenceItem {
  readonly start?: string;
  readonly end?: string;
}

/** The case file: JSON, posted to POST /assess or passed to `caseassess assess CASE.json`. Unknown fields are rejected. */
export interface CaseFile {
  readonly case_id: string;
  readonly title?: string;
  readonly description?: string;
  readonly analyst?: string;
  readonly techniques?: readonly CaseTechnique[];
  readonly software?: readonly CaseSoftware[];
  readonly indicators?: readonly CaseIndicator[];
  readonly sectors?: readonly CaseSector[];
  readonly regions?: readonly CaseRegion[];
  readonly time_window?: CaseTimeWindow;
}

// ---------------------------------------------------------------- the knowledge graph

/** Where the knowledge graph came from; reported by GET /health and in every assessment. */
export interface KnowledgeGraphMetadata {
  /** `MITRE ATT&CK Enterprise` */
  readonly source: string;
  /** ATT&CK release, `18.1`; null when the bundle does not say. */
  readonly attack_version: string | null;
  /** ISO 8601, the bundle's newest `modified` date, so rebuilding gives the same file. */
  readonly built_at: string;
  readonly actor_count: number;
  readonly technique_count: number;
  readonly software_count: number;
  /** SHA-256 of the knowledge-graph file as loaded (added by the service, not stored in the file). */
  readonly sha256: string;
}

/** How a derived fact was found: the rule and the words of the ATT&CK description it matched. */
export interface DerivedFact<T> {
  readonly value: T;
  /** The rule that matched, for example `sponsor:state-sponsored-adjective`. */
  readonly rule: string;
  /** The matched phrase from the description. */
  readonly basis: string;
}

/** One actor in GET /actors. */
export interface ActorListItem {
  /** ATT&CK group id (`G0007`), the actor's key. */
  readonly attack_id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** Suspected sponsor state where ATT&CK states it (`Russia`), else null. */
  readonly sponsor_state: string | null;
  readonly sponsor_basis: string | null;
  readonly technique_count: number;
  readonly software_count: number;
  readonly sectors: readonly string[];
  readonly regions: readonly string[];
  /** Active years where ATT&CK gives them; null when unknown. */
  readonly active_from: number | null;
  readonly active_to: number | null;
  readonly url: string | null;
}

/** GET /health */
export interface CaseAssessHealth {
  readonly status: 'ok';
  readonly service: 'caseassess';
  readonly version: string;
  readonly actor_count: number;
  readonly kg: KnowledgeGraphMetadata;
}

// ---------------------------------------------------------------- the assessment

export type EvidenceKind = 'technique' | 'software' | 'indicator' | 'sector' | 'region' | 'time_window';

/** ICD 203 words of estimative probability, lowest to highest. */
export type EstimativeWords =
  | 'almost no chance'
  | 'very unlikely'
  | 'unlikely'
  | 'roughly even chance'
  | 'likely'
  | 'very likely'
  | 'almost certain';

/** One row of the evidence table: what the item resolved to and how diagnostic it is. */
export interface EvidenceRow {
  readonly evidence_id: string;
  readonly kind: EvidenceKind;
  /** The item as the analyst gave it (technique id, software id or name, indicator `type:value`, sector, region, `start..end`). */
  readonly given: string;
  /** What it resolved to in the knowledge graph (`T1059.001`, `S0002`, `government`); null when nothing. */
  readonly resolved_id: string | null;
  readonly resolved_name: string | null;
  /** The analyst's confidence, 0..1 (1 when not given). */
  readonly confidence: number;
  /** Diagnosticity weight (inverse frequency across actors, natural log); 0 when not scored. */
  readonly weight: number;
  /** How many actors in the knowledge graph the item points to (exactly). */
  readonly actors_matching: number;
  /** `scored`; `unknown` (not in the knowledge graph); `not_scored` (the knowledge graph holds nothing to compare with). */
  readonly status: 'scored' | 'unknown' | 'not_scored';
}

/** How one evidence item bears on one hypothesis. */
export type ContributionMatch =
  /** the actor is known for exactly this technique, software, indicator, sector or region */
  | 'exact'
  /** the case names a sub-technique, the actor is known for its parent (or the reverse, or a sibling) */
  | 'related'
  /** the case's country lies in a region the actor targets (or the reverse) */
  | 'region'
  /** the time window overlaps the actor's active years */
  | 'within'
  /** contradicting: the time window lies outside the actor's active years */
  | 'outside'
  /** contradicting: a sector or region the actor is not known for, while its victimology is known */
  | 'victimology_mismatch'
  /** weakly contradicting: a diagnostic technique or software the actor is not known to use */
  | 'absent'
  /** the unlisted-actor hypothesis' share of this item */
  | 'unlisted';

export interface Contribution {
  readonly evidence_id: string;
  readonly kind: EvidenceKind;
  readonly match: ContributionMatch;
  /** Signed: positive supports the hypothesis, negative counts against it. */
  readonly value: number;
}

/** One hypothesis: an actor of the knowledge graph, or the unknown/unlisted actor. */
export interface Hypothesis {
  /** 1 for the leading hypothesis. */
  readonly rank: number;
  /** `actor` or the null hypothesis `unlisted` (an actor the knowledge graph does not hold, or none of them). */
  readonly kind: 'actor' | 'unlisted';
  /** ATT&CK group id; `unlisted` for the null hypothesis. */
  readonly attack_id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly sponsor_state: string | null;
  /** support - contradiction */
  readonly score: number;
  /** Sum of positive contributions. */
  readonly support: number;
  /** Sum of negative contributions, as a positive number. */
  readonly contradiction: number;
  /** Normalised score (softmax over all hypotheses, see docs/caseassess.md); not a calibrated probability. */
  readonly probability: number;
  /** Every non-zero contribution, in case order. */
  readonly contributions: readonly Contribution[];
}

/** The confidence statement, in words with the numbers behind it. */
export interface AssessmentConfidence {
  readonly words: EstimativeWords;
  /** The leading hypothesis' probability the words describe. */
  readonly probability: number;
  /** The ICD 203 band of those words, as probabilities [low, high]. */
  readonly band: readonly [number, number];
  /** Probability of the unlisted-actor hypothesis. */
  readonly unlisted_probability: number;
  /** Total weight of scored evidence (sum of weight x confidence): how much the case says at all. */
  readonly evidence_weight: number;
  /** `low` when evidence is thin, the gap narrow or the leader is the unlisted actor; else `moderate` or `high`. */
  readonly analytic_confidence: 'low' | 'moderate' | 'high';
  /** One sentence an analyst can paste. */
  readonly statement: string;
  /**
   * Set when no evidence item could be scored: the numbers above are the prior alone, and the reading is "insufficient
   * evidence", never a probability. `reason` says why nothing scored; `would_help` lists what evidence would.
   */
  readonly insufficient?: { readonly reason: string; readonly would_help: readonly string[] } | undefined;
}

/** Distance between the first and the second hypothesis. */
export interface AssessmentGap {
  readonly second_attack_id: string | null;
  readonly score: number;
  readonly probability: number;
}

/** What POST /assess (format json) and `caseassess assess` return. */
export interface Assessment {
  readonly case_id: string;
  readonly case_title: string | null;
  /** SHA-256 of the case file's canonical JSON. */
  readonly case_sha256: string;
  /** The leading hypothesis (may be the unlisted actor). */
  readonly leading: Hypothesis;
  /** The next hypotheses in rank order (at most 10, and always the unlisted actor when it is not leading). */
  readonly alternatives: readonly Hypothesis[];
  readonly gap: AssessmentGap;
  readonly confidence: AssessmentConfidence;
  readonly evidence: readonly EvidenceRow[];
  /** How many hypotheses were scored (actors + 1). */
  readonly hypotheses_scored: number;
  /** Non-fatal problems: unknown technique ids, unknown software, unscored evidence. Never echo more than the evidence id. */
  readonly warnings: readonly AssessmentWarning[];
  readonly kg: KnowledgeGraphMetadata;
  /** The scoring method's version, `caseassess-score/1`, so stored results stay interpretable. */
  readonly method: string;
}

export interface AssessmentWarning {
  readonly code: 'unknown_technique' | 'revoked_technique' | 'newer_technique' | 'unknown_software' | 'unknown_sector' | 'unknown_region' | 'indicator_not_scored' | 'time_not_scored' | 'no_scored_evidence' | 'duplicate_evidence';
  readonly evidence_id: string | null;
  readonly message: string;
}

/** POST /assess?format=stix returns a STIX 2.1 bundle. */
export interface StixBundle {
  readonly type: 'bundle';
  readonly id: string;
  readonly objects: readonly StixObject[];
}

export interface StixObject {
  readonly type: string;
  readonly id: string;
  readonly spec_version?: '2.1';
  readonly [key: string]: unknown;
}

// ---------------------------------------------------------------- stored assessments

/** One item of GET /assessments (a page `{items, total, limit, offset}`, newest first). */
export interface StoredAssessmentSummary {
  readonly id: string;
  readonly case_id: string;
  readonly case_title: string | null;
  readonly case_sha256: string;
  /** ISO 8601 */
  readonly created_at: string;
  readonly leading_attack_id: string;
  readonly leading_name: string;
  readonly leading_probability: number;
  readonly confidence_words: EstimativeWords;
  /** Present and true when no evidence item scored: the reading is "insufficient evidence", not the words above. */
  readonly insufficient?: boolean | undefined;
}

/** GET /assessments/:id */
export interface StoredAssessment extends StoredAssessmentSummary {
  readonly assessment: Assessment;
}

/** A page of GET /actors or GET /assessments. */
export interface CaseAssessPage<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** GET /cases items: a case kept in the store (saved, imported from STIX, or grown by findings sent from other workspaces). */
export interface StoredCaseSummary {
  readonly case_id: string;
  readonly title: string | null;
  readonly evidence_count: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** GET /cases/:id. */
export interface StoredCase extends StoredCaseSummary {
  readonly case: CaseFile;
}

/** POST /cases/import/stix (201 a new case; 200 when the same bundle was imported before and merged into its case). */
export interface CaseImportResponse {
  readonly case: CaseFile;
  readonly summary: StixImportSummary;
  readonly stored: StoredCaseSummary;
  /** The case the earlier import made: all it held is kept, `added` are the evidence ids the bundle gave that it lacked. */
  readonly merged?: { readonly into: string; readonly added: readonly string[]; readonly kept: number };
}
