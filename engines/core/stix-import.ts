// Reading a STIX 2.1 bundle someone else wrote (ACH and Assessment imports): the envelope checked with zod, each object with the structural validator,
// the newest version of each object kept, STIX patterns read for plain observable values, and a tally of what was mapped and what was skipped.
import { z } from 'zod';
import { attackExternalId } from './attack/bundle.js';
import type { FindingIndicator, FindingIndicatorType, StixImportSummary } from './contracts/findings.js';
import { C0_DEL, stripControlCharacters } from './control-characters.js';
import { VitrineError, type ErrorDetail } from './errors.js';
import { checkJsonShape } from './json-text.js';
import { ownEntry } from './own.js';
import { SCO_TYPES, validateStixObject, type StixObject } from './stix.js';
import { validate } from './validation.js';

/** A bundle to import may be at most this large (bytes of JSON). */
export const MAX_STIX_IMPORT_BYTES = 8 * 1024 * 1024;
/** And hold at most this many objects. */
export const MAX_STIX_IMPORT_OBJECTS = 20_000;

const bundleSchema = z.looseObject({
  type: z.literal('bundle', { message: 'must be "bundle" (a STIX 2.1 bundle)' }),
  id: z.string().regex(/^bundle--[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be bundle--UUID'),
  spec_version: z.string().max(10).optional(),
  objects: z
    .array(
      z.looseObject({
        type: z.string().min(1).max(250),
        id: z.string().min(1).max(300),
        spec_version: z.string().max(10).optional(),
      }),
    )
    .min(1, 'the bundle holds no objects')
    .max(MAX_STIX_IMPORT_OBJECTS, `at most ${MAX_STIX_IMPORT_OBJECTS} objects`),
});

/**
 * Counts what an import mapped (and as what) and what it skipped (and why), by STIX type: one outcome per object, so the counts
 * add up to the objects given. An object named by id is counted once: mapped when any part of it was mapped (an indicator with
 * three values, one already held), else under the first reason it was skipped for. Calls without an id (a duplicate copy of an
 * object, which has no object of its own) always count.
 */
export class ImportTally {
  private readonly mappedCounts = new Map<string, number>();
  private readonly skippedCounts = new Map<string, number>();
  /** Object id to the key it is counted under, and whether that is a mapping. */
  private readonly outcome = new Map<string, { key: string; mapped: boolean }>();

  private bump(m: Map<string, number>, key: string, n: number): void {
    const next = (m.get(key) ?? 0) + n;
    if (next <= 0) m.delete(key);
    else m.set(key, next);
  }

  mapped(type: string, as: string, objectId?: string): void {
    const key = `${type}\u0000${as}`;
    if (objectId !== undefined) {
      const seen = this.outcome.get(objectId);
      if (seen?.mapped === true) return;
      if (seen !== undefined) this.bump(this.skippedCounts, seen.key, -1);
      this.outcome.set(objectId, { key, mapped: true });
    }
    this.bump(this.mappedCounts, key, 1);
  }

  skipped(type: string, reason: string, objectId?: string, n = 1): void {
    const key = `${type}\u0000${reason}`;
    if (objectId !== undefined) {
      if (this.outcome.has(objectId)) return;
      this.outcome.set(objectId, { key, mapped: false });
      n = 1;
    }
    this.bump(this.skippedCounts, key, n);
  }

  summary(bundleId: string, objects: number): StixImportSummary {
    const rows = (m: Map<string, number>) =>
      [...m.entries()].map(([k, count]) => {
        const [type, text] = k.split('\u0000') as [string, string];
        return { type, count, text };
      }).sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : b.count - a.count));
    return {
      bundle_id: bundleId,
      objects,
      mapped: rows(this.mappedCounts).map((r) => ({ type: r.type, count: r.count, as: r.text })),
      skipped: rows(this.skippedCounts).map((r) => ({ type: r.type, count: r.count, reason: r.text })),
    };
  }
}

export interface ImportBundle {
  readonly id: string;
  /** Objects given in the bundle (before versions and invalid ones were dropped). */
  readonly count: number;
  /** The valid objects, newest version of each id, in bundle order. */
  readonly objects: readonly StixObject[];
  readonly byId: ReadonlyMap<string, StixObject>;
  /** Relationships (valid, both ends in the bundle). */
  readonly relationships: readonly StixObject[];
  /** Newest `modified` (or `created`) of the bundle's objects, when any. */
  readonly newest: string | undefined;
  readonly tally: ImportTally;
}

/**
 * Checks and reads a bundle: 422 when it is not a STIX 2.1 bundle or breaks the JSON shape limits (JSON_SHAPE_LIMITS: nesting,
 * members of an object, finite numbers; details name the paths, never the values);
 * an object that fails the structural checks is skipped and counted, not fatal.
 */
export function readImportBundle(value: unknown): ImportBundle {
  // Before anything walks it recursively (the validators here, the canonical hash the routes store).
  checkJsonShape(value, 'not a STIX bundle this import reads');
  const b = validate(bundleSchema, value, 'STIX bundle');
  if (b.spec_version !== undefined && b.spec_version !== '2.1')
    throw new VitrineError('validation_failed', 'only STIX 2.1 bundles are read (this one says another spec_version)', { details: [{ path: 'spec_version', issue: 'must be 2.1' }] });
  const versionProblems: ErrorDetail[] = [];
  b.objects.forEach((o, i) => {
    if (SCO_TYPES.has(o.type)) {
      if (o.spec_version !== undefined && o.spec_version !== '2.1') versionProblems.push({ path: `objects[${i}].spec_version`, issue: 'must be 2.1' });
    } else if (o.spec_version !== '2.1') versionProblems.push({ path: `objects[${i}].spec_version`, issue: o.spec_version === undefined ? 'required (STIX 2.1)' : 'must be 2.1' });
  });
  if (versionProblems.length > 0)
    throw new VitrineError('validation_failed', 'not a STIX 2.1 bundle: objects without spec_version 2.1 (STIX 2.0 is not read)', { details: versionProblems.slice(0, 50) });

  const tally = new ImportTally();
  const newestById = new Map<string, StixObject>();
  for (const raw of b.objects) {
    const o = raw as unknown as StixObject;
    const problems = validateStixObject(o);
    if (problems.length > 0) {
      tally.skipped(o.type, `invalid STIX (${problems[0]!.path === '' ? 'object' : problems[0]!.path}: ${problems[0]!.issue})`);
      continue;
    }
    const seen = newestById.get(o.id);
    if (seen === undefined) newestById.set(o.id, o);
    else {
      const older = String(seen['modified'] ?? '') <= String(o['modified'] ?? '') ? seen : o;
      if (older === seen) newestById.set(o.id, o);
      tally.skipped(o.type, 'an older version of an object given twice');
    }
  }
  const objects = [...newestById.values()];
  const relationships: StixObject[] = [];
  for (const o of objects) {
    if (o.type !== 'relationship') continue;
    if (!newestById.has(String(o['source_ref'])) || !newestById.has(String(o['target_ref']))) tally.skipped('relationship', 'refers to an object that is not in the bundle', o.id);
    else relationships.push(o);
  }
  let newest: string | undefined;
  for (const o of objects) {
    const t = typeof o['modified'] === 'string' ? o['modified'] : typeof o['created'] === 'string' ? o['created'] : undefined;
    if (t !== undefined && (newest === undefined || t > newest)) newest = t;
  }
  return { id: b.id, count: b.objects.length, objects, byId: newestById, relationships, newest, tally };
}

/** The ATT&CK technique id (T1059, T1059.001) of an attack pattern, when it has a mitre-attack reference. */
export function attackTechniqueId(o: StixObject): string | undefined {
  const id = attackExternalId({ external_references: o['external_references'] });
  return id !== undefined && /^T\d{4}(?:\.\d{3})?$/.test(id) ? id : undefined;
}

/** The ATT&CK id (G0016, S0002, C0010...) of any object, when it has one. */
export function attackIdOf(o: StixObject): string | undefined {
  return attackExternalId({ external_references: o['external_references'] });
}

/** Another id an object is known by (CAPEC-163 of an attack pattern), for display. */
export function externalIdOf(o: StixObject): string | undefined {
  const refs = o['external_references'];
  if (!Array.isArray(refs)) return undefined;
  for (const r of refs as unknown[]) {
    const ref = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    if (typeof ref['external_id'] === 'string' && typeof ref['source_name'] === 'string') return ref['external_id'];
  }
  return undefined;
}

const OBSERVABLE_PATHS: Readonly<Record<string, FindingIndicatorType>> = {
  'ipv4-addr:value': 'ipv4',
  'ipv6-addr:value': 'ipv6',
  'domain-name:value': 'domain',
  'url:value': 'url',
  'email-addr:value': 'email',
  'email-message:from_ref.value': 'email',
  'email-message:sender_ref.value': 'email',
  'file:name': 'file_name',
  'windows-registry-key:key': 'registry_key',
  'mutex:name': 'mutex',
  'autonomous-system:number': 'asn',
};

function hashType(path: string): FindingIndicatorType | undefined {
  const m = /^file:hashes\.'?([A-Za-z0-9-]+)'?$/.exec(path);
  if (!m) return undefined;
  const h = m[1]!.toUpperCase().replace(/-/g, '');
  return h === 'MD5' ? 'md5' : h === 'SHA1' ? 'sha1' : h === 'SHA256' ? 'sha256' : undefined;
}

export interface PatternValues {
  /** Equality comparisons on observables a case or matrix can hold. */
  readonly values: readonly FindingIndicator[];
  /** Comparisons that give no plain value (MATCHES, LIKE, !=, >) or that compare a property no indicator type holds. */
  readonly unsupported: number;
}

// `object-type:path OP 'value'` (or a number, or a `(...)` set), inside the square brackets of a STIX pattern; read
// by a single-pass tokenizer (every character is looked at a bounded number of times), never by a backtracking regex.
const OPERATORS = ['ISSUPERSET', 'ISSUBSET', 'MATCHES', 'LIKE', 'IN', '!=', '<>', '<=', '>=', '=', '<', '>'] as const;

const isTypeChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
/** Characters of a property path after the colon: letters, digits, `_ . ' * [ ] -`. */
const isPathChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x27 || c === 0x2a || c === 0x5b || c === 0x5d || c === 0x2d;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

interface Comparison {
  readonly path: string;
  readonly negated: boolean;
  readonly op: string;
  readonly literal: string;
}

/** The comparisons of a pattern in order, in time linear in its length. */
export function patternComparisons(pattern: string): Comparison[] {
  const out: Comparison[] = [];
  const n = pattern.length;
  const at = (i: number): number => (i < n ? pattern.charCodeAt(i) : -1);
  const skipSpace = (i: number): number => {
    while (i < n && isSpace(at(i))) i++;
    return i;
  };
  // Once a string (or set) is found unterminated, no later one can close (the escapes line up again after any later
  // quote), so later literals of that kind fail without another scan to the end.
  let openString = false;
  let openSet = false;
  let i = 0;
  while (i < n) {
    const c = at(i);
    if (!isTypeChar(c)) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isTypeChar(at(i))) i++;
    if (at(i) !== 0x3a || !isPathChar(at(i + 1))) continue;
    const colon = i;
    let pe = colon + 1;
    while (pe < n && isPathChar(at(pe))) pe++;
    // The greedy path first; then, as the regex grammar backtracks, a word operator inside the path's last ten characters.
    let found: { readonly comparison: Comparison; readonly end: number } | undefined;
    for (let cut = pe; cut > colon + 1 && cut >= pe - 10 && found === undefined; cut--) found = comparisonAt(start, cut, pe);
    if (found === undefined) {
      // As the regex would, look for a comparison starting inside the path (after a `]` or `.`).
      i = colon + 1;
      continue;
    }
    out.push(found.comparison);
    i = found.end;
  }
  return out;

  /** The comparison whose path is [start, cut) of a path run ending at `pe` (spaces may follow only the run's end). */
  function comparisonAt(start: number, cut: number, pe: number): { comparison: Comparison; end: number } | undefined {
    const spaced = cut === pe;
    let j = spaced ? skipSpace(cut) : cut;
    let negated = false;
    if (spaced && pattern.startsWith('NOT', j) && isSpace(at(j + 3))) {
      negated = true;
      j = skipSpace(j + 3);
    }
    const op = OPERATORS.find((o) => pattern.startsWith(o, j));
    if (op === undefined) return undefined;
    // Inside the path only the word operators can stand, and they must reach the literal with no space between.
    if (!spaced && !/^[A-Z]/.test(op)) return undefined;
    const afterOp = j + op.length;
    j = afterOp >= pe ? skipSpace(afterOp) : afterOp;
    const lc = at(j);
    let end = -1;
    if (lc === 0x27 && !openString) {
      const close = closingQuote(pattern, j + 1);
      if (close < 0) openString = true;
      else end = close + 1;
    } else if (lc === 0x28 && !openSet) {
      const close = pattern.indexOf(')', j + 1);
      if (close < 0) openSet = true;
      else end = close + 1;
    } else if (lc === 0x2d || (lc >= 0x30 && lc <= 0x39)) {
      let k = lc === 0x2d ? j + 1 : j;
      const digits = k;
      while (k < n && at(k) >= 0x30 && at(k) <= 0x39) k++;
      if (k > digits) {
        if (at(k) === 0x2e && at(k + 1) >= 0x30 && at(k + 1) <= 0x39) {
          k++;
          while (k < n && at(k) >= 0x30 && at(k) <= 0x39) k++;
        }
        end = k;
      }
    }
    if (end < 0) return undefined;
    return { comparison: { path: pattern.slice(start, cut), negated, op, literal: pattern.slice(j, end) }, end };
  }
}

/** Index of the quote closing a string whose body starts at `from` (backslash escapes), or -1. */
function closingQuote(text: string, from: number): number {
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x5c) k++;
    else if (c === 0x27) return k;
  }
  return -1;
}

/** The plain observable values of a STIX pattern (`[ipv4-addr:value = '10.0.0.1'] OR [...]`); nothing else of the pattern is evaluated. */
export function patternValues(pattern: string, patternType = 'stix'): PatternValues {
  if (patternType !== 'stix') return { values: [], unsupported: 1 };
  const values: FindingIndicator[] = [];
  let unsupported = 0;
  for (const m of patternComparisons(pattern)) {
    if (m.negated || m.op !== '=') {
      unsupported++;
      continue;
    }
    const value = m.literal.startsWith("'") ? unescape(m.literal.slice(1, -1)) : m.literal;
    const type = OBSERVABLE_PATHS[m.path] ?? hashType(m.path);
    if (value.trim() === '' || value.length > 2048) unsupported++;
    else if (type !== undefined) values.push({ type, value: value.trim() });
    else unsupported++;
  }
  return { values, unsupported };
}

/** A STIX string body with its backslash escapes taken off (`\\'` is a quote, `\\\\` a backslash). */
function unescape(body: string): string {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c === '\\' && k + 1 < body.length) {
      out += body[k + 1];
      k++;
    } else out += c;
  }
  return out;
}

/** The indicator value an SCO holds itself (an ipv4-addr object in the bundle), when it is one a case or matrix can hold. */
export function scoValue(o: StixObject): FindingIndicator | undefined {
  const v = o['value'];
  const simple: Readonly<Record<string, FindingIndicatorType>> = { 'ipv4-addr': 'ipv4', 'ipv6-addr': 'ipv6', 'domain-name': 'domain', url: 'url', 'email-addr': 'email' };
  const t = ownEntry(simple, o.type);
  if (t !== undefined && typeof v === 'string' && v !== '' && v.length <= 2048) return { type: t, value: v };
  if (o.type === 'file') {
    const hashes = (typeof o['hashes'] === 'object' && o['hashes'] !== null ? o['hashes'] : {}) as Record<string, unknown>;
    for (const [k, h] of Object.entries(hashes)) {
      const type = hashType(`file:hashes.${k}`);
      if (type !== undefined && typeof h === 'string' && h.length <= 128) return { type, value: h };
    }
    if (typeof o['name'] === 'string' && o['name'] !== '') return { type: 'file_name', value: o['name'] };
  }
  return undefined;
}

/** A name for an object in evidence text: its name, else its type. At most `max` characters. */
export function displayName(o: StixObject, max = 200): string {
  const name = typeof o['name'] === 'string' && o['name'].trim() !== '' ? o['name'].trim() : o.type;
  return stripControlCharacters(name, C0_DEL).slice(0, max);
}
