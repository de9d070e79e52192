// Shared plumbing of every parser: warnings with a cap, the entry limit, offset-to-line lookup, name normalisation.
import { VitrineError } from '../errors.js';
import { DEFAULT_MAX_ENTRIES, MAX_WARNINGS } from './types.js';
import type { ManifestEntry, ManifestWarning, ManifestWarningCode, ParseOptions } from './types.js';

/** Collects a parser's warnings and entries and enforces the entry limit. */
export class ParseContext {
  readonly warnings: ManifestWarning[] = [];
  warningCount = 0;
  readonly entries: ManifestEntry[] = [];
  private readonly maxEntries: number;

  constructor(options: ParseOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  warn(code: ManifestWarningCode, message: string, line?: number): void {
    this.warningCount += 1;
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(line === undefined ? { code, message } : { code, message, line });
  }

  add(entry: ManifestEntry): void {
    if (this.entries.length >= this.maxEntries) throw parseError('the file holds more entries than the limit allows');
    this.entries.push(entry);
  }
}

/** The one error a parser throws: the file as a whole could not be read. Never quotes the file. */
export function parseError(message: string): VitrineError {
  return new VitrineError('parse_error', message);
}

/** PEP 503 normalised name: runs of `-`, `_`, `.` become one `-`, lower case. */
export function pep503(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

/** Offsets where each line starts, for turning a character offset into a 0-based line. */
export class LineIndex {
  private readonly starts: number[];
  private readonly length: number;

  constructor(text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
    this.length = text.length;
  }

  /** Offset where a 0-based line starts; the text's length for lines past the last. */
  startOf(line: number): number {
    return line <= 0 ? 0 : line < this.starts.length ? (this.starts[line] ?? this.length) : this.length;
  }

  /** 0-based line of a character offset (binary search). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** Splits text into lines without their terminators (`\n`, `\r\n`). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** Narrowing helpers for values that came out of JSON, YAML or TOML. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A version-like scalar: YAML and TOML may hand a number for `1.0`; only finite numbers are accepted. */
export function versionString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Removes a UTF-8 byte order mark, which editors on Windows add and parsers reject. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
