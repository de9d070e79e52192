// flowdet's answers as a client reads them (the Flows workspace): GET /health's model, the /score answer, the datasets,
// the studies and their report. The engine's own types (engines/flowdet: bundle.ts, score.ts, studies/run.ts) extend these,
// so an answer the engine builds always has what a client reads; numbers a report may hold as NaN (an AUC over one class)
// reach a client as null.

export type DatasetName = 'synthetic' | 'cicids2017' | 'unsw_nb15';

export interface Metrics {
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
  readonly roc_auc: number | null;
  readonly pr_auc: number | null;
}

export interface BudgetPoint {
  readonly eps: number;
  readonly detection_rate: number;
  readonly robust_accuracy: number;
  readonly max_linf: number;
  readonly physical_valid_share: number | null;
  readonly dropped: number;
}

export interface AttackSummary {
  readonly detector: string;
  readonly attack: string;
  readonly robustness: { readonly eps: readonly number[]; readonly detection_rate: readonly number[]; readonly area: number | null };
  readonly robust: readonly { readonly eps: number; readonly detection_rate: number; readonly robust_accuracy: number }[];
  readonly budgets?: readonly BudgetPoint[];
}

/** Clean test metrics of a model, with the split they were measured on. */
export interface CardMetrics {
  readonly split: string;
  readonly n: number;
  readonly accuracy: number;
  readonly f1: number;
  readonly fpr: number;
}

/** Which model speaks: GET /health's model.card and every /score answer's model. */
export interface ModelCard {
  /** The data the model was trained on (a dataset name or a CSV file name). */
  readonly data: string;
  readonly dataset: string;
  /** Training rows (clean rows; adversarial training adds its own perturbed copies on top); null for bundles without a card. */
  readonly training_rows: number | null;
  readonly created: string;
  /** SHA-256 of the schema's feature names, classes and formulas: two models with the same hash read the same features. */
  readonly feature_set_sha256: string;
  readonly members: readonly string[];
  readonly hardened: boolean;
  readonly test: CardMetrics | null;
}

export interface Health {
  readonly model: { readonly loaded: boolean; readonly error?: string; readonly sha256?: string; readonly card?: ModelCard };
}

export interface DatasetInfo {
  readonly name: DatasetName;
  readonly present: boolean;
  readonly where: string;
}

export interface StudyReport {
  readonly dataset: { readonly name: string; readonly rows: number; readonly malicious: number; readonly train: number; readonly test: number; readonly split: string };
  readonly detectors: readonly { readonly name: string; readonly test: Metrics }[];
  readonly curves: Readonly<Record<string, { readonly roc: { readonly fpr: readonly number[]; readonly tpr: readonly number[] }; readonly pr: { readonly recall: readonly number[]; readonly precision: readonly number[] } }>>;
  readonly attacks: readonly AttackSummary[];
  readonly hardening?: { readonly baseline: AttackSummary; readonly hardened: AttackSummary };
  readonly alarm?: { readonly test_fpr: number; readonly test_tpr: number | null };
  readonly explanations?: { readonly shap_summary: readonly { readonly feature: string; readonly mean_abs_shap: number }[] };
  readonly poisoning?: { readonly backdoor_success: { readonly clean: number; readonly poisoned: number; readonly sanitised: number }; readonly sanitiser: { readonly precision: number; readonly recall: number } };
  readonly drift?: { readonly available: boolean; readonly reason?: string; readonly random_split?: Metrics; readonly temporal?: Metrics };
  readonly validity: { readonly checked: number; readonly invalid: number; readonly dropped?: number; readonly max_linf_excess?: number; readonly physical_valid_share?: number | null };
  readonly served_model?: { readonly members: readonly string[]; readonly hardened: boolean; readonly trained_on: string; readonly training_rows: number; readonly split: string; readonly test: Metrics };
}

export interface StudyView {
  readonly id: string;
  readonly kind: 'run' | 'seeds' | 'steal';
  readonly status: 'running' | 'done' | 'failed' | 'cancelled';
  readonly progress: { readonly fraction: number; readonly stage?: string };
  readonly error?: { readonly code: string; readonly message: string };
  readonly result?: { readonly report?: StudyReport; readonly format?: string; readonly metrics?: readonly { readonly detector: string; readonly metric: string; readonly mean: number; readonly interval: { readonly lower: number | null; readonly upper: number | null } }[] };
}

export interface FlowScore {
  readonly index: number;
  readonly verdict: 'malicious' | 'benign';
  /** Mean malicious probability of the hardened ensemble's members. */
  readonly score: number;
  readonly alarm?: { readonly score: number; readonly adversarial_suspected: boolean };
  readonly explanation?: {
    readonly contributions: readonly { readonly feature: string; readonly value: number; readonly shap: number }[];
    readonly counterfactual: null | { readonly found: boolean; readonly eps: number; readonly score: number; readonly valid: boolean; readonly changes: readonly { readonly feature: string; readonly from: number; readonly to: number }[] };
  };
}

export interface ScoreResponse {
  readonly model?: ModelCard & { readonly sha256: string };
  readonly threshold: number;
  readonly counts?: { readonly flows: number; readonly malicious: number; readonly benign: number };
  readonly columns?: {
    readonly used: readonly string[];
    readonly recomputed: readonly string[];
    readonly ignored: readonly string[];
    readonly defaulted: readonly { readonly feature: string; readonly flows: number }[];
    readonly renamed: readonly { readonly from: string; readonly to: string }[];
  };
  readonly warnings?: readonly string[];
  readonly results: readonly FlowScore[];
  /** Same as columns.ignored (kept for clients that read it). */
  readonly ignored_features: readonly string[];
}
