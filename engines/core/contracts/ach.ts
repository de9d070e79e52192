// The attribution service's ACH and TAXII bodies as the HTTP API, the command line and the ACH workspace share them (types only).
import type { Extraction } from './attrib.js';
import type { StixImportSummary } from './findings.js';

/**
 * A rating of one evidence item against one hypothesis, as in Heuer's matrix:
 * CC very consistent, C consistent, N neutral, I inconsistent, II very inconsistent, NA not applicable.
 */
export type AchRating = 'CC' | 'C' | 'N' | 'I' | 'II' | 'NA';

/** Credibility or relevance of an evidence item: a word, or a weight from 0 to 1. */
export type AchWeight = 'high' | 'medium' | 'low' | number;

/** An actor named inline or in a scenario; a hypothesis may point at one. */
export interface AchActor {
  readonly id: string;
  readonly name: string;
  /** ATT&CK group id (G0016) when the actor is an ATT&CK group. */
  readonly attack_id?: string;
  readonly aliases?: readonly string[];
  /** ATT&CK technique ids the actor is known to use: evidence naming techniques is rated against them when the scenario gives no rating. */
  readonly techniques?: readonly string[];
  readonly description?: string;
}

export interface AchHypothesis {
  readonly id: string;
  readonly title: string;
  /** The actor this hypothesis attributes the activity to (an id from `actors`), if any. */
  readonly actor?: string;
  readonly description?: string;
}

export interface AchEvidence {
  readonly id: string;
  readonly summary: string;
  /** The whole text the summary stands for (at most 4,000 characters); the summary is the row's short label. */
  readonly detail?: string;
  /** Where it came from (report, sensor, interview ...). */
  readonly source?: string;
  readonly type?: 'technique' | 'indicator' | 'infrastructure' | 'malware' | 'context' | 'assumption' | 'absence';
  readonly credibility?: AchWeight;
  readonly relevance?: AchWeight;
  /** ATT&CK technique ids the item shows. */
  readonly techniques?: readonly string[];
  /** Rating per hypothesis id; a hypothesis left out is derived from its actor's techniques, else neutral. */
  readonly ratings?: Readonly<Record<string, AchRating>>;
}

/** A scenario file (format `vitrine-ach/1`), a bundled one, or the inline body of POST /ach. */
export interface AchScenario {
  readonly format?: 'vitrine-ach/1';
  readonly name?: string;
  readonly title?: string;
  /** The intelligence question the hypotheses answer. */
  readonly question?: string;
  readonly description?: string;
  /** RFC 3339 UTC time the scenario describes; the STIX objects carry it, so a bundled scenario always gives the same bundle. */
  readonly as_of?: string;
  readonly actors?: readonly AchActor[];
  /** When absent, one hypothesis per actor (with the actor's id). */
  readonly hypotheses?: readonly AchHypothesis[];
  readonly evidence: readonly AchEvidence[];
}

/** An analyst's change of one cell, `EID:HID=RATING`, recorded with who and when. */
export interface AchOverride {
  readonly evidence: string;
  readonly hypothesis: string;
  readonly rating: AchRating;
  /** Who made it; the command line uses the login name, the API the body's `analyst` (default `analyst`). */
  readonly by: string;
  /** RFC 3339 UTC time it was made. */
  readonly at: string;
  readonly reason?: string;
  /** The rating the cell had before. */
  readonly previous: AchRating;
}

/** Where a cell's rating came from. */
export type AchRatingSource = 'scenario' | 'derived' | 'default' | 'override';

export interface AchCell {
  readonly hypothesis: string;
  readonly rating: AchRating;
  readonly source: AchRatingSource;
  /** Weighted inconsistency this cell adds to its hypothesis (0 unless I or II). */
  readonly inconsistency: number;
}

export interface AchEvidenceRow {
  readonly id: string;
  readonly summary: string;
  readonly detail?: string;
  readonly source?: string;
  readonly type?: string;
  readonly techniques: readonly string[];
  readonly credibility: number;
  readonly relevance: number;
  /** credibility × relevance. */
  readonly weight: number;
  /** 0 (rated alike against every hypothesis: no help in choosing) to 1 (CC against one, II against another). */
  readonly diagnosticity: number;
  readonly cells: readonly AchCell[];
}

export interface AchHypothesisScore {
  readonly id: string;
  readonly title: string;
  readonly actor?: AchActor;
  readonly rank: number;
  /** The catch-all hypotheses ("another actor, not named", "not hostile activity"): labelled as such. */
  readonly catch_all?: boolean;
  /** No evidence is rated C, CC, I or II against it: ranked after every tested hypothesis, never the strong leader. */
  readonly untested?: boolean;
  /** Σ weight × (1 for I, 2 for II): the lower, the better (Heuer: the least inconsistent hypothesis leads). */
  readonly inconsistency: number;
  /** Σ weight × (1 for C, 2 for CC): shown, never used for ranking. */
  readonly consistency: number;
  readonly counts: Readonly<Record<AchRating, number>>;
}

/** What would happen to the conclusion if one evidence item were wrong. */
export interface AchSensitivity {
  readonly evidence: string;
  /** Leader if the item were discarded (deception, error); null when it stays the same. */
  readonly leader_if_removed: string | null;
  /** Leader if the item's ratings were the opposite (consistent ↔ inconsistent); null when it stays the same. */
  readonly leader_if_reversed: string | null;
  /** Whether either change gives another leader. */
  readonly critical: boolean;
  /** How much the item widens (+) or narrows (−) the leader's margin over the runner-up. */
  readonly margin_effect: number;
}

export type AchStrength = 'tie' | 'weak' | 'moderate' | 'strong';

export interface AchAssessment {
  readonly kind: 'ach-assessment';
  /** sha256 of the scenario and overrides (canonical JSON): equal inputs, equal id. */
  readonly id: string;
  readonly scenario: { readonly name: string; readonly title: string; readonly question?: string; readonly description?: string; readonly as_of?: string };
  readonly assessed_at: string;
  readonly leader: string;
  /** Hypotheses tied with the leader (same inconsistency), other than the leader. */
  readonly tied_with: readonly string[];
  /** Runner-up inconsistency minus the leader's. */
  readonly margin: number;
  readonly strength: AchStrength;
  /** The rule the strength states (what `strong`, `moderate`, `weak` or `tie` means here). */
  readonly strength_rule?: string;
  readonly conclusion: string;
  readonly hypotheses: readonly AchHypothesisScore[];
  readonly evidence: readonly AchEvidenceRow[];
  readonly sensitivity: readonly AchSensitivity[];
  readonly overrides: readonly AchOverride[];
  readonly warnings: readonly string[];
}

/** GET /scenarios. */
export interface AchScenarioSummary {
  readonly name: string;
  readonly title: string;
  readonly question?: string;
  readonly hypotheses: number;
  readonly evidence: number;
}

export interface AchScenarioList {
  readonly source: 'bundled' | 'fixtures';
  readonly scenarios: readonly AchScenarioSummary[];
}

/** An override as a request gives it: `EID:HID=RATING` text or the parts. */
export type AchOverrideInput = string | { readonly evidence: string; readonly hypothesis: string; readonly rating: AchRating; readonly reason?: string };

/** POST /ach and POST /stix: a bundled scenario by name, or a scenario inline (actors, evidence, hypotheses), with overrides. */
export interface AchRequest {
  readonly scenario?: string | AchScenario;
  readonly actors?: readonly AchActor[];
  readonly hypotheses?: readonly AchHypothesis[];
  readonly evidence?: readonly AchEvidence[];
  readonly overrides?: readonly AchOverrideInput[];
  /** Who makes the overrides (default `analyst`). */
  readonly analyst?: string;
}

/** GET /health. */
export interface AttribHealth {
  readonly status: 'ok';
  readonly service: 'attrib';
  readonly version: string;
  readonly kb: { readonly loaded: boolean; readonly techniques: number; readonly groups: number; readonly software: number; readonly source?: string };
  readonly scenarios: number;
  readonly limits: { readonly max_body_bytes: number; readonly max_text_chars: number };
  readonly taxii: string;
}

/** POST /extract: a report's text (at most 500,000 characters). */
export interface ExtractRequest {
  readonly text: string;
  /** A display name for the report (the STIX report's name). */
  readonly name?: string;
  /** Also run the sentence classifier when the service has a model. */
  readonly classifier?: boolean;
}

/** POST /extract: the span-anchored extraction, its technique-matrix layer (ATT&CK Navigator 4.5) and its STIX 2.1 bundle. */
export interface ExtractResponse {
  readonly extraction: Extraction;
  readonly layer: { readonly name: string; readonly versions: { readonly layer: string }; readonly domain: string; readonly techniques: readonly unknown[] };
  readonly stix: { readonly type: 'bundle'; readonly id: string; readonly objects: readonly unknown[] };
}

/** GET /matrices items: a matrix kept in the store (imported from STIX, or grown by findings sent from other workspaces). */
export interface StoredMatrixSummary {
  readonly id: string;
  readonly title: string;
  readonly hypothesis_count: number;
  readonly evidence_count: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** GET /matrices/:id: the summary and the scenario, which POST /ach scores as `{scenario: <object>}`. */
export interface StoredMatrix extends StoredMatrixSummary {
  readonly scenario: AchScenario;
}

/** POST /matrices/import/stix (201 a new matrix; 200 when the same bundle was imported before and merged into its matrix). */
export interface MatrixImportResponse {
  readonly matrix: StoredMatrixSummary;
  readonly scenario: AchScenario;
  readonly summary: StixImportSummary;
  /** The matrix the earlier import made: all it held is kept, `added` are the evidence ids the bundle gave that it lacked. */
  readonly merged?: { readonly into: string; readonly added: readonly string[]; readonly kept: number };
}
