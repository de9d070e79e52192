// Pure helpers of the Triage workspace: formatting, filters, chart scales and rule error lines.
import type { TriageDriver, TriageImportedDll, TriageResult } from '../../../../engines/core/contracts/petriage';
import type { ApiError} from '../../api/client';
import { type IssueDetail } from '../../api/client';

/** The service's upload limit (the spec's 32 MB = 32,000,000 bytes, engines/petriage/openapi.ts MAX_UPLOAD_BYTES); checked here too so a big file is refused before it is sent. */
export const MAX_UPLOAD_BYTES = 32_000_000;
/** Section entropy at or above this is shown as high (packed or encrypted data; the rule synthesiser skips such sections too). */
export const HIGH_ENTROPY = 7.2;
/** Rule validation waits this long after the last keystroke. */
export const VALIDATE_DELAY_MS = 500;

export type UploadPhase = 'reading' | 'uploading' | 'analysing';

export interface UploadProgress {
  readonly phase: UploadPhase;
  /** 0..1 when known. */
  readonly fraction?: number;
}

/** Size in words a person reads at a glance. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

export function hex(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;
}

export function percent(x: number): string {
  return `${(x * 100).toFixed(x >= 0.995 || x < 0.005 ? 0 : 1)} %`;
}

export function signed(x: number, digits = 3): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
}

/** Why a file is refused before sending, or null when it may be sent. Never quotes the file's name or contents. */
export function refuseBeforeUpload(size: number): string | null {
  if (size === 0) return 'The file is empty; drop a PE file (.exe, .dll, .sys).';
  if (size > MAX_UPLOAD_BYTES) return `The file is ${formatBytes(size)}; the triage service accepts at most 32 MB (32,000,000 bytes) per upload.`;
  return null;
}

/** Where the bar between the two ends of a diverging chart sits: one unit has the same length on both sides. */
export function driverScale(items: readonly TriageDriver[]): number {
  return Math.max(1e-9, ...items.map((d) => Math.abs(d.contribution)));
}

/** A driver's label: the feature name, with the file's own tokens for a hashed slot. */
export function driverLabel(d: TriageDriver): string {
  const tokens = d.tokens && d.tokens.length > 0 ? ` [${d.tokens.slice(0, 3).join(', ')}${d.tokens.length > 3 ? ', …' : ''}]` : '';
  // The feature name already carries the first token in brackets for hashed imports; do not repeat it.
  return d.feature.includes('[') ? d.feature : `${d.feature}${tokens}`;
}

export interface ImportRow {
  readonly dll: string;
  readonly name: string;
  readonly ordinal: number | null;
  readonly delay: boolean;
}

export function importRows(result: TriageResult): ImportRow[] {
  const rows: ImportRow[] = [];
  const add = (dlls: readonly TriageImportedDll[], delay: boolean): void => {
    for (const d of dlls)
      for (const s of d.symbols) rows.push({ dll: d.dll, name: s.name ?? s.ordinal_name ?? `ordinal ${s.ordinal ?? '?'}`, ordinal: s.ordinal, delay });
  };
  add(result.pe.imports, false);
  add(result.pe.delay_imports, true);
  return rows;
}

/** Case-insensitive match of every word of the filter against any of the fields. */
export function matches(filter: string, ...fields: readonly (string | null | undefined)[]): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = fields.filter((f): f is string => typeof f === 'string').join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

export interface RuleProblem {
  /** 1-based line, when the service named one. */
  readonly line: number | null;
  readonly issue: string;
}

/** The rule parser's 422 names lines as `line N` in its details; anything else is one problem without a line. */
export function ruleProblems(error: ApiError): RuleProblem[] {
  const fromDetails = error.details.map((d: IssueDetail): RuleProblem => {
    const m = /^line (\d+)$/.exec(d.path);
    return { line: m ? Number(m[1]) : null, issue: m ? d.issue : `${d.path ? `${d.path}: ` : ''}${d.issue}` };
  });
  return fromDetails.length > 0 ? fromDetails : [{ line: null, issue: error.message }];
}


/** A section's permissions as `r-x`, from the dissector's flag names. */
export function sectionAccess(flags: readonly string[]): string {
  const has = (f: string): boolean => flags.includes(f);
  return `${has('MEM_READ') ? 'r' : '-'}${has('MEM_WRITE') ? 'w' : '-'}${has('MEM_EXECUTE') ? 'x' : '-'}`;
}

/** What a section holds, in a word: code, data, uninitialised data (bss). */
export function sectionContent(flags: readonly string[]): string {
  const words: string[] = [];
  if (flags.includes('CNT_CODE')) words.push('code');
  if (flags.includes('CNT_INITIALIZED_DATA')) words.push('data');
  if (flags.includes('CNT_UNINITIALIZED_DATA')) words.push('bss');
  if (flags.includes('MEM_DISCARDABLE')) words.push('discardable');
  if (flags.includes('MEM_SHARED')) words.push('shared');
  return words.join(', ');
}

/** Why *Export rule (.yar)* cannot export, said on the disabled button (its title); null when it can. */
export function exportRuleBlocker(hasResult: boolean, ruleText: string): string | null {
  if (!hasResult) return 'Triage a file first: its synthesised rule, or the one you write in the Rule tab, is what is exported.';
  if (ruleText.trim() === '') return 'No rule to export: none was synthesised for this file and the Rule tab is empty; write one there.';
  return null;
}
