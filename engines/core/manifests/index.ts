// Manifest and lock-file library shared by provgate lineage and pkgscan project scans: the spec's ecosystem_for, pin_entries, pin_lines, parse_manifest, parse_manifest_entries.
import { createHash } from 'node:crypto';
import { VitrineError } from '../errors.js';
import { parseError, stripBom } from './context.js';
import { applyPinRule, firstPerName } from './pins.js';
import { FORMATS, specFor } from './registry.js';
import { DEFAULT_MAX_CHARS } from './types.js';
import type { Ecosystem, ManifestDocument, ManifestEntry, ManifestFormat, ParseOptions, PinEntry } from './types.js';

export type {
  DeclaredRequirement,
  Ecosystem,
  EntrySource,
  ManifestDocument,
  ManifestEntry,
  ManifestFormat,
  ManifestInclude,
  ManifestOption,
  ManifestWarning,
  ManifestWarningCode,
  ParseOptions,
  PinEntry,
} from './types.js';
export { DEFAULT_MAX_CHARS, DEFAULT_MAX_ENTRIES, MAX_WARNINGS } from './types.js';
export { pep503 } from './context.js';
export { compareGoVersions, isGoVersion } from './gover.js';
export { FORMATS } from './registry.js';
export type { FormatSpec, PinRule } from './registry.js';

/** Spec `ecosystem_for`: the ecosystem a manifest's file name implies; pypi for any name the library does not list. */
export function ecosystemFor(manifest: string): Ecosystem {
  return specFor(manifest).ecosystem;
}

/** The format a manifest's file name selects (`requirements` for any name not listed). */
export function formatFor(manifest: string): ManifestFormat {
  return specFor(manifest).format;
}

/** Every file name the library reads by name (requirements files are every other name). */
export const KNOWN_FILE_NAMES: readonly string[] = FORMATS.flatMap((f) => f.fileNames);

/**
 * Parses one manifest completely: every entry in file order with lines, warnings, and for requirements files
 * the requirement lines, includes and options. Throws VitrineError('parse_error') when the file cannot be read
 * as its format at all; a damaged record becomes a warning instead.
 */
export function readManifest(manifest: string, text: string, options: ParseOptions = {}): ManifestDocument {
  const spec = specFor(manifest);
  const limit = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (text.length > limit) throw new VitrineError('parse_error', 'the manifest is larger than the parser accepts', { details: [{ path: '', issue: 'too large' }] });
  const body = stripBom(text);
  let parsed;
  try {
    parsed = spec.parse(body, options);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    // a parser bug or an engine limit (stack, memory) must still surface as a clean refusal of this file
    throw parseError('the manifest could not be parsed');
  }
  const { ctx } = parsed;
  return {
    format: spec.format,
    ecosystem: spec.ecosystem,
    ...(parsed.formatVersion !== undefined ? { formatVersion: parsed.formatVersion } : {}),
    ...(parsed.project !== undefined ? { project: parsed.project } : {}),
    lineMap: parsed.lineMap,
    entries: ctx.entries,
    ...(parsed.requirements !== undefined ? { requirements: parsed.requirements } : {}),
    ...(parsed.includes !== undefined ? { includes: parsed.includes } : {}),
    ...(parsed.options !== undefined ? { options: parsed.options } : {}),
    warnings: ctx.warnings,
    warningCount: ctx.warningCount,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    parser: `${spec.format}@${spec.parserVersion}`,
  };
}

/** The pins of a parsed document under its format's pin rule, in file order. */
export function pinsOf(doc: ManifestDocument): ManifestEntry[] {
  const spec = FORMATS.find((f) => f.format === doc.format);
  return applyPinRule(doc.entries, spec?.pinRule ?? 'one-per-version');
}

/** Spec `parse_manifest_entries`: every pinned (name, version) in file order, after the pin rules. */
export function parseManifestEntries(manifest: string, text: string, options?: ParseOptions): ManifestEntry[] {
  return pinsOf(readManifest(manifest, text, options));
}

/** Spec `pin_entries` for a parsed document: null when the format has no line map (npm lockfile v1). */
export function pinEntriesOf(doc: ManifestDocument): PinEntry[] | null {
  if (!doc.lineMap) return null;
  const out: PinEntry[] = [];
  for (const e of pinsOf(doc)) {
    if (e.line === undefined || e.keyLine === undefined) return null;
    out.push({ name: e.name, version: e.version, line: e.line, keyLine: e.keyLine });
  }
  return out;
}

/** Spec `pin_entries`: every pinned entry with its version line and key line; null when the format has no line map (npm lockfile v1). */
export function pinEntries(manifest: string, text: string, options?: ParseOptions): PinEntry[] | null {
  return pinEntriesOf(readManifest(manifest, text, options));
}

/** Spec `pin_lines`: name to the 0-based line carrying its version, one per name (first pin in file order for lock files); null without a line map. */
export function pinLines(manifest: string, text: string, options?: ParseOptions): Map<string, number> | null {
  const pins = pinEntries(manifest, text, options);
  if (pins === null) return null;
  const out = new Map<string, number>();
  for (const p of pins) if (!out.has(p.name)) out.set(p.name, p.line);
  return out;
}

/** Spec `parse_manifest`: name to version, one per name (first pin in file order for lock files). */
export function parseManifest(manifest: string, text: string, options?: ParseOptions): Map<string, string> {
  return new Map(firstPerName(parseManifestEntries(manifest, text, options)).map((e) => [e.name, e.version]));
}
export { declaredFormatFor, npmSpecKind, parsePep508, pep440SpecKind, readDeclaredManifest } from './declared.js';
export type { DeclaredDependency, DeclaredFormat, DeclaredIndex, DeclaredKind, DeclaredManifest } from './declared.js';
