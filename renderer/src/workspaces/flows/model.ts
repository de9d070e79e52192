// The Flows workspace's data: the shapes it reads from the flowdet service, and parsing pasted JSON or a dropped CSV of flows.

import type { ModelCard } from '../../../../engines/core/contracts/flowdet';
import type { IssueDetail } from '../../api/client';

export type { DatasetName, Metrics, BudgetPoint, AttackSummary, CardMetrics, ModelCard, Health, DatasetInfo, StudyReport, StudyView, FlowScore, ScoreResponse } from '../../../../engines/core/contracts/flowdet';

/** A report's split id as an analyst reads it. */
export function splitLabel(split: string): string {
  return split === 'unsw_nb15_official_partition' ? 'UNSW-NB15 official partition' : split === 'stratified_70_30' ? 'stratified 70/30' : split.replace(/_/g, ' ');
}

/** "hardened gbdt + mlp ensemble trained on X (N rows, date)". */
export function describeModel(c: ModelCard): string {
  const rows = c.training_rows === null ? 'rows not recorded' : `${c.training_rows.toLocaleString('en')} training rows`;
  return `${c.hardened ? 'hardened ' : ''}${c.members.join(' + ')} ensemble trained on ${c.data} (${c.dataset} schema, ${rows}, ${c.created.slice(0, 10)})`;
}

/** The service's limits (GET /health), repeated here so the panel refuses before sending. */
export const MAX_FLOWS = 1000;
export const MAX_EXPLAIN_FLOWS = 50;
/** Largest CSV the panel reads in the browser. */
export const MAX_CSV_BYTES = 4 * 1024 * 1024;
/** Largest CSV of one's own flows a study may train on (the service's limit). */
export const MAX_TRAIN_CSV_BYTES = 32 * 1024 * 1024;

export type Flow = Record<string, number | string>;

/** Splits one CSV line with RFC 4180 quotes; null for an unterminated quote. */
export function splitCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (quoted) return null;
  out.push(cur);
  return out;
}

/** Flows from a CSV text (header line, then one flow per line): names trimmed, numbers read, `inf`/`NaN` and blanks left out (0 at the service). */
export function flowsFromCsv(text: string): { flows: Flow[]; skipped: number } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '');
  if (!header || header.length < 2) throw new Error('The CSV has no header line.');
  const names = header.map((h) => h.trim());
  const flows: Flow[] = [];
  let skipped = 0;
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = splitCsvLine(line);
    if (!cells || cells.length !== names.length) {
      skipped++;
      continue;
    }
    // Pairs, then an object of them: a column named `__proto__` is a feature like any other (an assignment would set the prototype).
    const pairs: [string, number | string][] = [];
    cells.forEach((c, k) => {
      const t = c.trim();
      const name = names[k]!;
      if (t === '' || /^(label|attack_cat|day)$/i.test(name)) return;
      const v = Number(t);
      if (Number.isFinite(v)) pairs.push([name, v]);
      else if (/^[A-Za-z-]{1,20}$/.test(t) && !/^(nan|inf|infinity)$/i.test(t)) pairs.push([name, t]);
    });
    flows.push(Object.fromEntries(pairs));
  }
  return { flows, skipped };
}

/**
 * The empty Score box's example: the shape it reads (an array of flows, each CICIDS2017 base feature names to numbers;
 * Flow Duration in microseconds, as CICFlowMeter writes it), itself valid input, one flow a line that fits the box at
 * 1100 px.
 */
export const FLOWS_PLACEHOLDER = [
  '[',
  '  { "Destination Port": 443, "Flow Duration": 120000, "Total Fwd Packets": 8 },',
  '  { "Destination Port": 22, "Flow Duration": 5000000, "Total Fwd Packets": 40 }',
  ']',
].join('\n');

/**
 * What to do when the service refuses flows for a missing base feature, in the panel's words: its message says
 * 'leave "defaults" on' and counts flows from 0, the panel's switch is "read missing base features as 0" and the box
 * counts from 1. Null for any other refusal.
 */
export function missingFeatureHint(details: readonly IssueDetail[]): string | null {
  const missing = details.filter((d) => d.issue === 'missing base feature');
  if (missing.length === 0) return null;
  const flows = new Set(missing.map((d) => /^flows\[(\d+)\]/.exec(d.path)?.[1]).filter((n) => n !== undefined).map(Number));
  const first = Math.min(...flows);
  const which = flows.size === 0 ? '' : ` (flow ${first} above is the box's flow ${first + 1}: the service counts from 0)`;
  return `Tick “read missing base features as 0” to score them with every missing base feature read as 0 (the answer lists which), or give each flow every base feature the model needs${which}.`;
}

/** Flows from pasted JSON: an array of objects, or `{flows: [...]}`. */
export function flowsFromJson(text: string): Flow[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The text is not valid JSON.');
  }
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null && Array.isArray((value as { flows?: unknown }).flows) ? (value as { flows: unknown[] }).flows : null;
  if (!list) throw new Error('Paste an array of flows or an object with a "flows" array.');
  return list.map((f, i) => {
    if (typeof f !== 'object' || f === null || Array.isArray(f)) throw new Error(`Flow ${i + 1} is not an object of feature names to values.`);
    return Object.fromEntries(Object.entries(f as Record<string, unknown>).filter((kv): kv is [string, number | string] => (typeof kv[1] === 'number' && Number.isFinite(kv[1])) || typeof kv[1] === 'string'));
  });
}

/** Why a scoring request would be refused before sending, or null. */
export function refuseScoring(count: number, explain: boolean): string | null {
  if (count === 0) return 'There are no flows to score.';
  if (count > MAX_FLOWS) return `At most ${MAX_FLOWS} flows per request; this has ${count}.`;
  if (explain && count > MAX_EXPLAIN_FLOWS) return `With explanations, at most ${MAX_EXPLAIN_FLOWS} flows per request; this has ${count}.`;
  return null;
}

/** Number formatting for the tables: n/a for null or non-finite. */
export function fmt(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits);
}

/**
 * A feature value as an analyst reads it: grouped digits, at most 4 significant digits, never
 * exponent notation ("219,000", "0.0559"); ports and other identifiers (`feature` naming a port)
 * stay plain ("8080").
 */
export function fmtValue(v: number, feature = ''): string {
  if (!Number.isFinite(v)) return String(v);
  if (/port/i.test(feature) && Number.isInteger(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { maximumSignificantDigits: Math.abs(v) >= 1e4 ? Math.max(4, Math.floor(Math.log10(Math.abs(v))) + 1) : 4 });
}
