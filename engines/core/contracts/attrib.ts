// Types of the attribution service's analysis results (extraction, clustering, attribution), shared with the renderer (types only).

/** Kinds of indicator the extractor finds. */
export type AttribIndicatorType =
  | 'ipv4'
  | 'ipv6'
  | 'domain'
  | 'url'
  | 'email'
  | 'md5'
  | 'sha1'
  | 'sha256'
  | 'sha512'
  | 'cve'
  | 'file_path'
  | 'registry_key';

/** One indicator, anchored to the characters [start, end) of the submitted text (UTF-16 code units, as JavaScript strings count). */
export interface IndicatorSpan {
  readonly type: AttribIndicatorType;
  /** The refanged, normalised value (`hxxp://evil[.]com` gives `http://evil.com`; hashes lower case). */
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** True when the text wrote it defanged; the span then covers the defanged text. */
  readonly defanged: boolean;
}

/** How a technique was found: an explicit id, the technique's name, a known phrasing, or the sentence classifier. */
export type TechniqueSource = 'id' | 'name' | 'phrase' | 'classifier';

/** One technique mention, anchored to [start, end) of the submitted text. */
export interface TechniqueSpan {
  /** ATT&CK id (`T1059.001`); a revoked id in the text is reported under the id that replaced it. */
  readonly id: string;
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly source: TechniqueSource;
  /** Classifier probability (source `classifier` only). */
  readonly probability?: number;
  /** The id as written when it was revoked and replaced. */
  readonly written_as?: string;
}

/** A technique found in the text, with how often and where first. */
export interface TechniqueSummary {
  readonly id: string;
  readonly name: string;
  readonly tactics: readonly string[];
  readonly count: number;
  readonly sources: readonly TechniqueSource[];
}

export interface Extraction {
  /** Length of the submitted text in UTF-16 code units. */
  readonly length: number;
  /** Sorted by start, then end. */
  readonly indicators: readonly IndicatorSpan[];
  /** Sorted by start, then end; may overlap each other (a name inside a classified sentence). */
  readonly techniques: readonly TechniqueSpan[];
  /** Distinct techniques, by id. */
  readonly technique_summary: readonly TechniqueSummary[];
  /** Things the extractor noticed but did not report (a deprecated id, an unknown id), without submitted values. */
  readonly warnings: readonly string[];
}

/** One group of reports with similar indicators and techniques. */
export interface Cluster {
  /** `C1`, `C2` ... by decreasing size, then by first member name. */
  readonly id: string;
  /** Report names, sorted. */
  readonly members: readonly string[];
  /** Mean pairwise similarity of the members (1 for a single report). */
  readonly cohesion: number;
  /** Indicators (`type:value`) found in at least two members. */
  readonly shared_indicators: readonly string[];
  /** Technique ids found in at least two members. */
  readonly shared_techniques: readonly string[];
  /** Pairs of members at or above the threshold, with their similarity. */
  readonly links: readonly { readonly a: string; readonly b: string; readonly similarity: number }[];
}

/** One candidate actor of an attribution. */
export interface AttributionCandidate {
  readonly rank: number;
  /** ATT&CK group id (`G0016`). */
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** Cosine similarity of the IDF-weighted technique profiles, 0..1. */
  readonly similarity: number;
  /** The ranking score: the sum of the parts in `reasons` (techniques: dot product / (|report| x sqrt|group|); software, infrastructure, time). */
  readonly score: number;
  /** Calibrated probability of the score when a calibration map was given, else the score's share of the shortlist's total. */
  readonly probability: number;
  /** Report techniques the group is known to use, rarest first. */
  readonly shared_techniques: readonly string[];
  /** Report software (ATT&CK ids) the group is known to use, rarest first. */
  readonly shared_software?: readonly string[];
  /** Report indicators recorded as this group's infrastructure. */
  readonly shared_infrastructure?: readonly string[];
  /** Why the group ranks where it does: each part of the score with what it rests on. */
  readonly reasons?: readonly AttributionReason[];
  /** How many techniques ATT&CK records for the group. */
  readonly group_technique_count: number;
}

/** One part of a candidate's attribution score. */
export interface AttributionReason {
  readonly kind: 'techniques' | 'software' | 'procedures' | 'infrastructure' | 'time';
  /** What the part adds to the score: its weight / (k + its rank among the groups on this part). */
  readonly contribution: number;
  /** The part's own measure for this group (technique or software overlap, wording cosine, share of indicators, time closeness). */
  readonly value?: number;
  /** The group's rank among all groups on this part (1 = the best; groups with equal values share a rank). */
  readonly rank?: number;
  readonly detail: string;
}

export interface Attribution {
  /** Technique ids of the report (from extraction), sorted. */
  readonly techniques: readonly string[];
  /** ATT&CK software ids named in the report, sorted. */
  readonly software?: readonly string[];
  /** Report techniques no group in the knowledge base uses (they weigh nothing). */
  readonly unmatched_techniques: readonly string[];
  readonly shortlist: readonly AttributionCandidate[];
  /** Whether `probability` comes from a calibration map. */
  readonly calibrated: boolean;
  /** The measure, in words, for the reader of the result. */
  readonly method: string;
  readonly groups_considered: number;
  readonly warnings: readonly string[];
}

/** Held-out figures of a trained technique classifier. */
export interface ClassifierEvaluation {
  readonly examples: number;
  readonly labels: number;
  /** Top-1 prediction kept when its probability is at least `threshold`. */
  readonly threshold: number;
  readonly precision: number;
  readonly recall: number;
  readonly micro_f1: number;
  /** Precision, recall and micro-F1 of the top-1 prediction with no threshold (the TRAM baseline's measure). */
  readonly top1: { readonly precision: number; readonly recall: number; readonly micro_f1: number };
}
