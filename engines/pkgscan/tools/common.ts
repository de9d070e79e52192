// Shared pieces of the tool analyzers: options, bounded match text, line numbers, and the outcome of a tool that could not run.
import type { FindingCategory, ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AnalyzerOutput } from '../analyzers/types.js';
import type { ReleaseFile } from '../package/types.js';
import { FINDING_CATEGORIES as CATEGORIES, SEVERITIES } from '../vocabulary.js';
import { DEFAULT_TOOL_OUTPUT_BYTES, DEFAULT_TOOL_TIMEOUT_MS } from './run.js';
import { C0_DEL, replaceControlCharacters } from '../../core/control-characters.js';

export interface ToolAnalyzerOptions {
  /** PATH to look the tool up in (default: the process's). */
  readonly pathVar?: string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Findings kept per run (the rest are counted in the message). */
  readonly maxFindings?: number;
}

export const DEFAULT_MAX_FINDINGS = 500;

export function resolved(o: ToolAnalyzerOptions): { timeoutMs: number; maxOutputBytes: number; maxFindings: number } {
  return { timeoutMs: o.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, maxOutputBytes: o.maxOutputBytes ?? DEFAULT_TOOL_OUTPUT_BYTES, maxFindings: o.maxFindings ?? DEFAULT_MAX_FINDINGS };
}

export { SEVERITIES };

export function asSeverity(v: string | undefined, fallback: Severity): Severity {
  return SEVERITIES.find((s) => s === v) ?? fallback;
}
export function asCategory(v: string | undefined, fallback: FindingCategory): FindingCategory {
  return CATEGORIES.find((c) => c === v) ?? fallback;
}

/** At most 200 characters, control characters escaped (the ScanFinding `match` rule). */
export function boundMatch(text: string): string {
  // Every character escapes to one or more, so the first 201 decide the answer: a long match is not escaped whole.
  const escaped = replaceControlCharacters(text.length > 201 ? text.slice(0, 201) : text, C0_DEL, (c) => (c === 9 ? ' ' : `\\x${c.toString(16).padStart(2, '0')}`));
  return escaped.length > 200 ? `${escaped.slice(0, 199)}…` : escaped;
}

/** 1-based line of a byte offset. */
export function lineAt(data: Uint8Array, offset: number): number {
  let line = 1;
  const end = Math.min(offset, data.length);
  for (let i = 0; i < end; i++) if (data[i] === 0x0a) line++;
  return line;
}

/** The text of a 1-based line (bounded), or null. */
export function lineText(data: Uint8Array, line: number): string | null {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = data.indexOf(0x0a, start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  let end = data.indexOf(0x0a, start);
  if (end < 0) end = data.length;
  return boundMatch(Buffer.from(data.subarray(start, Math.min(end, start + 400))).toString('utf8').trim());
}

export function unavailable(tool: string): AnalyzerOutput {
  return { findings: [], status: 'unavailable', message: `${tool} is not installed` };
}

/**
 * What a run that threw becomes: a time-out and a cancellation are rethrown (the lead's runner records `timed_out` /
 * stops the scan), everything else is a `failed` run with our message.
 */
export function failure(err: unknown, tool: string): AnalyzerOutput {
  if (err instanceof VitrineError && (err.code === 'timeout' || err.code === 'cancelled')) throw err;
  if (err instanceof VitrineError && err.code === 'unavailable') return { findings: [], status: 'unavailable', message: err.message };
  return { findings: [], status: 'failed', message: err instanceof VitrineError ? err.message : `${tool} failed` };
}

export function capFindings(findings: ScanFinding[], max: number, note: string[]): ScanFinding[] {
  if (findings.length <= max) return findings;
  note.push(`${findings.length - max} further findings not kept`);
  return findings.slice(0, max);
}

export function withData(files: readonly ReleaseFile[]): ReleaseFile[] {
  return files.filter((f) => f.data !== undefined);
}
