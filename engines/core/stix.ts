// STIX 2.1 objects with deterministic ids (UUIDv5 over canonical JSON), their builders, and a structural validator.
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';
import { VitrineError, type ErrorDetail } from './errors.js';
import { ownEntry } from './own.js';

/** The STIX 2.1 namespace for deterministic (UUIDv5) identifiers (spec section 2.9). */
export const STIX_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 4122 hex is case-insensitive on input; the OASIS examples include an upper-case digit.
const IDENTIFIER = /^([a-z0-9-]{3,250})--([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/i;
const TYPE_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){1,248}[a-z0-9]$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/;

/** Any STIX object: its type and id, and whatever other properties its type defines. */
export interface StixObject {
  readonly type: string;
  readonly id: string;
  readonly [property: string]: unknown;
}

export interface StixBundle {
  readonly type: 'bundle';
  readonly id: string;
  readonly objects: readonly StixObject[];
}

export interface ExternalReference {
  readonly source_name: string;
  readonly description?: string;
  readonly url?: string;
  readonly external_id?: string;
}

export interface KillChainPhase {
  readonly kill_chain_name: string;
  readonly phase_name: string;
}

/** Properties every SDO and SRO builder accepts. `created` defaults to now, `modified` to `created`. */
export interface CommonOptions {
  readonly created?: Date | string;
  readonly modified?: Date | string;
  /** Part of the id: the same name from two creators is two objects. */
  readonly created_by_ref?: string;
  readonly description?: string;
  readonly labels?: readonly string[];
  readonly confidence?: number;
  readonly external_references?: readonly ExternalReference[];
  readonly object_marking_refs?: readonly string[];
}

/** RFC 4122 version-5 UUID (SHA-1 of namespace bytes + UTF-8 name). */
export function uuidv5(namespace: string, name: string): string {
  if (!UUID.test(namespace)) throw new VitrineError('internal', 'uuidv5 namespace is not a UUID');
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const digest = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `type--uuidv5(STIX namespace, canonical JSON of identity)`: the same identity always gives the same id. */
export function stixId(type: string, identity: unknown): string {
  if (!TYPE_NAME.test(type)) throw new VitrineError('internal', 'invalid STIX type name');
  return `${type}--${uuidv5(STIX_NAMESPACE, canonicalJson(identity))}`;
}

/** A STIX timestamp with exactly millisecond precision, from a Date or an RFC 3339 UTC string. */
export function stixTimestamp(value: Date | string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new VitrineError('validation_failed', 'invalid timestamp');
    return value.toISOString();
  }
  const m = TIMESTAMP.exec(value);
  if (!m || !validTimestampParts(m)) throw new VitrineError('validation_failed', 'timestamp must be RFC 3339 in UTC (YYYY-MM-DDTHH:MM:SS[.s]Z)');
  // Truncate (never round) finer precision, so a timestamp never moves into the next second.
  const ms = (m[7] ?? '').slice(0, 3).padEnd(3, '0');
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${ms}Z`;
}

function validTimestampParts(m: RegExpExecArray): boolean {
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && date.getUTCHours() === h && date.getUTCMinutes() === mi && date.getUTCSeconds() === s;
}

function isIdentifier(value: unknown, type?: string): value is string {
  if (typeof value !== 'string') return false;
  const m = IDENTIFIER.exec(value);
  return m !== null && (type === undefined || m[1] === type);
}

/** Drops undefined members (exactOptionalPropertyTypes) and empty optional lists. */
function compact(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

function sdo(type: string, identity: Record<string, unknown>, common: CommonOptions, props: Record<string, unknown>): StixObject {
  const created = stixTimestamp(common.created ?? new Date());
  const modified = common.modified === undefined ? created : stixTimestamp(common.modified);
  if (modified < created) throw new VitrineError('validation_failed', 'modified must not be earlier than created');
  if (common.created_by_ref !== undefined && !isIdentifier(common.created_by_ref, 'identity'))
    throw new VitrineError('validation_failed', 'created_by_ref must be an identity id');
  if (common.confidence !== undefined && !(Number.isInteger(common.confidence) && common.confidence >= 0 && common.confidence <= 100))
    throw new VitrineError('validation_failed', 'confidence must be an integer from 0 to 100');
  const id = stixId(type, common.created_by_ref === undefined ? identity : { ...identity, created_by_ref: common.created_by_ref });
  const object = compact({
    type,
    spec_version: '2.1',
    id,
    created,
    modified,
    created_by_ref: common.created_by_ref,
    ...props,
    description: props['description'] ?? common.description,
    labels: common.labels,
    confidence: common.confidence,
    external_references: props['external_references'] ?? common.external_references,
    object_marking_refs: common.object_marking_refs,
  }) as StixObject;
  const problems = validateStixObject(object);
  if (problems.length > 0) throw new VitrineError('validation_failed', `invalid ${type}`, { details: problems });
  return object;
}

function optionalTimestamp(value: Date | string | undefined): string | undefined {
  return value === undefined ? undefined : stixTimestamp(value);
}

export type IdentityClass = 'individual' | 'group' | 'system' | 'organization' | 'class' | 'unspecified';

export function identity(p: { name: string; identity_class?: IdentityClass; sectors?: readonly string[]; contact_information?: string; roles?: readonly string[] }, common: CommonOptions = {}): StixObject {
  return sdo('identity', { name: p.name, identity_class: p.identity_class }, common, { ...p });
}

/** An ATT&CK technique id (T1059, T1059.001) as a mitre-attack external reference with its URL. */
export function mitreAttackReference(externalId: string): ExternalReference {
  const m = /^(T\d{4})(?:\.(\d{3}))?$/.exec(externalId);
  if (!m) throw new VitrineError('validation_failed', 'not an ATT&CK technique id');
  return { source_name: 'mitre-attack', external_id: externalId, url: `https://attack.mitre.org/techniques/${m[1]}${m[2] === undefined ? '' : `/${m[2]}`}` };
}

export function attackPattern(
  p: { name: string; mitre_id?: string; aliases?: readonly string[]; kill_chain_phases?: readonly KillChainPhase[]; description?: string },
  common: CommonOptions = {},
): StixObject {
  const refs = [...(p.mitre_id === undefined ? [] : [mitreAttackReference(p.mitre_id)]), ...(common.external_references ?? [])];
  const key = p.mitre_id === undefined ? { name: p.name } : { source_name: 'mitre-attack', external_id: p.mitre_id };
  return sdo('attack-pattern', key, common, {
    name: p.name,
    description: p.description,
    aliases: p.aliases,
    kill_chain_phases: p.kill_chain_phases,
    external_references: refs,
  });
}

/** An intrusion set; with `mitre_id` (G0016) its id follows the ATT&CK group, not the display name. */
export function intrusionSet(
  p: {
    name: string;
    mitre_id?: string;
    aliases?: readonly string[];
    description?: string;
    first_seen?: Date | string;
    last_seen?: Date | string;
    goals?: readonly string[];
    resource_level?: string;
    primary_motivation?: string;
    secondary_motivations?: readonly string[];
  },
  common: CommonOptions = {},
): StixObject {
  if (p.mitre_id !== undefined && !/^G\d{4}$/.test(p.mitre_id)) throw new VitrineError('validation_failed', 'not an ATT&CK group id');
  const refs = [
    ...(p.mitre_id === undefined ? [] : [{ source_name: 'mitre-attack', external_id: p.mitre_id, url: `https://attack.mitre.org/groups/${p.mitre_id}` }]),
    ...(common.external_references ?? []),
  ];
  const key = p.mitre_id === undefined ? { name: p.name } : { source_name: 'mitre-attack', external_id: p.mitre_id };
  const { mitre_id: _mitre, ...rest } = p;
  return sdo('intrusion-set', key, common, {
    ...rest,
    first_seen: optionalTimestamp(p.first_seen),
    last_seen: optionalTimestamp(p.last_seen),
    external_references: refs,
  });
}

export function malware(
  p: { name: string; is_family: boolean; malware_types?: readonly string[]; aliases?: readonly string[]; description?: string; kill_chain_phases?: readonly KillChainPhase[] },
  common: CommonOptions = {},
): StixObject {
  return sdo('malware', { name: p.name, is_family: p.is_family }, common, { ...p });
}

export function tool(
  p: { name: string; tool_types?: readonly string[]; aliases?: readonly string[]; description?: string; tool_version?: string; kill_chain_phases?: readonly KillChainPhase[] },
  common: CommonOptions = {},
): StixObject {
  return sdo('tool', { name: p.name }, common, { ...p });
}

/** An indicator; `pattern` is written by the caller in `pattern_type` (default stix) and not parsed here. */
export function indicator(
  p: { pattern: string; pattern_type?: string; valid_from: Date | string; valid_until?: Date | string; name?: string; description?: string; indicator_types?: readonly string[]; kill_chain_phases?: readonly KillChainPhase[] },
  common: CommonOptions = {},
): StixObject {
  const patternType = p.pattern_type ?? 'stix';
  return sdo('indicator', { pattern: p.pattern, pattern_type: patternType }, common, {
    ...p,
    pattern_type: patternType,
    valid_from: stixTimestamp(p.valid_from),
    valid_until: optionalTimestamp(p.valid_until),
  });
}

export function relationship(
  p: { relationship_type: string; source_ref: string; target_ref: string; description?: string; start_time?: Date | string; stop_time?: Date | string },
  common: CommonOptions = {},
): StixObject {
  return sdo('relationship', { relationship_type: p.relationship_type, source_ref: p.source_ref, target_ref: p.target_ref }, common, {
    ...p,
    start_time: optionalTimestamp(p.start_time),
    stop_time: optionalTimestamp(p.stop_time),
  });
}

export function report(
  p: { name: string; published: Date | string; object_refs: readonly string[]; report_types?: readonly string[]; description?: string },
  common: CommonOptions = {},
): StixObject {
  const published = stixTimestamp(p.published);
  return sdo('report', { name: p.name, published, object_refs: [...p.object_refs].sort() }, common, { ...p, published });
}

export function note(p: { content: string; object_refs: readonly string[]; abstract?: string; authors?: readonly string[] }, common: CommonOptions = {}): StixObject {
  return sdo('note', { content: p.content, object_refs: [...p.object_refs].sort() }, common, { ...p });
}

export const OPINIONS = ['strongly-disagree', 'disagree', 'neutral', 'agree', 'strongly-agree'] as const;
export type OpinionValue = (typeof OPINIONS)[number];

export function opinion(p: { opinion: OpinionValue; object_refs: readonly string[]; explanation?: string; authors?: readonly string[] }, common: CommonOptions = {}): StixObject {
  return sdo('opinion', { opinion: p.opinion, explanation: p.explanation, object_refs: [...p.object_refs].sort() }, common, { ...p });
}

/**
 * A bundle whose id derives from its contents (order-independent); exact duplicates are dropped,
 * while two versions of one object (different `modified`) are both kept, as STIX allows.
 */
export function bundle(objects: readonly StixObject[]): StixBundle {
  const seen = new Map<string, StixObject>();
  for (const o of objects) {
    const key = canonicalJson(o);
    if (!seen.has(key)) seen.set(key, o);
  }
  const kept = [...seen.values()];
  const problems = kept.flatMap((o, i) => validateStixObject(o).map((d) => ({ path: `objects[${i}]${d.path === '' ? '' : `.${d.path}`}`, issue: d.issue })));
  if (problems.length > 0) throw new VitrineError('validation_failed', 'invalid bundle', { details: problems.slice(0, 50) });
  return { type: 'bundle', id: stixId('bundle', [...seen.keys()].sort()), objects: kept };
}

// --- validation -------------------------------------------------------------------------------

/** SCO types (spec section 6): no created/modified, spec_version optional. */
export const SCO_TYPES: ReadonlySet<string> = new Set([
  'artifact', 'autonomous-system', 'directory', 'domain-name', 'email-addr', 'email-message', 'file', 'ipv4-addr', 'ipv6-addr',
  'mac-addr', 'mutex', 'network-traffic', 'process', 'software', 'url', 'user-account', 'windows-registry-key', 'x509-certificate',
]);

/** Required properties beyond the common ones, for each SDO and SRO type of STIX 2.1. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  'attack-pattern': ['name'],
  campaign: ['name'],
  'course-of-action': ['name'],
  grouping: ['context', 'object_refs'],
  identity: ['name'],
  incident: ['name'],
  indicator: ['pattern', 'pattern_type', 'valid_from'],
  infrastructure: ['name'],
  'intrusion-set': ['name'],
  location: [],
  malware: ['is_family'],
  'malware-analysis': ['product'],
  note: ['content', 'object_refs'],
  'observed-data': ['first_observed', 'last_observed', 'number_observed'],
  opinion: ['opinion', 'object_refs'],
  report: ['name', 'published', 'object_refs'],
  'threat-actor': ['name'],
  tool: ['name'],
  vulnerability: ['name'],
  relationship: ['relationship_type', 'source_ref', 'target_ref'],
  sighting: ['sighting_of_ref'],
  'marking-definition': [],
  'language-content': ['object_ref', 'contents'],
  'extension-definition': ['name', 'schema', 'version', 'extension_types'],
};

const SCO_VALUE_TYPES = new Set(['domain-name', 'email-addr', 'ipv4-addr', 'ipv6-addr', 'mac-addr', 'url']);
const TIMESTAMP_PROPERTIES = ['created', 'modified', 'valid_from', 'valid_until', 'published', 'first_seen', 'last_seen', 'first_observed', 'last_observed', 'start_time', 'stop_time'];
const STRING_PROPERTIES = ['name', 'description', 'pattern', 'pattern_type', 'relationship_type', 'content', 'context', 'product', 'explanation', 'abstract'];

/**
 * Structural checks of one STIX 2.1 object (or a bundle and everything in it): required properties,
 * identifier and timestamp forms, references. Returns problems with paths; never the values.
 */
export function validateStixObject(value: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  check(value, '', problems);
  return problems.slice(0, 200);
}

/** Throws validation_failed with the problems as details when `value` is not a valid STIX object. */
export function assertStixObject(value: unknown, what = 'STIX object'): asserts value is StixObject {
  const problems = validateStixObject(value);
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new VitrineError('validation_failed', `invalid ${what}${first.path === '' ? '' : ` at ${first.path}`}: ${first.issue}`, { details: problems });
  }
}

function check(value: unknown, at: string, problems: ErrorDetail[]): void {
  const add = (prop: string, issue: string): void => {
    problems.push({ path: prop === '' ? at : at === '' ? prop : `${at}.${prop}`, issue });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    add('', 'expected an object');
    return;
  }
  const o = value as Record<string, unknown>;
  const type = o['type'];
  if (typeof type !== 'string' || !TYPE_NAME.test(type)) {
    add('type', 'missing or invalid type');
    return;
  }
  if (!isIdentifier(o['id'], type)) add('id', `must be an identifier of the form ${type}--<uuid>`);

  if (type === 'bundle') {
    if (!Array.isArray(o['objects'])) add('objects', 'must be a list of objects');
    else o['objects'].forEach((child, i) => check(child, `${at === '' ? '' : `${at}.`}objects[${i}]`, problems));
    return;
  }

  const isSco = SCO_TYPES.has(type);
  const custom = type.startsWith('x-');
  // Own entries only: a type named after an Object.prototype member (`constructor`) is not a STIX type.
  const required = ownEntry(REQUIRED, type);
  if (!isSco && !custom && required === undefined) add('type', 'not a STIX 2.1 object type');
  if (isSco) {
    if (o['spec_version'] !== undefined && o['spec_version'] !== '2.1') add('spec_version', 'must be 2.1');
    if (SCO_VALUE_TYPES.has(type) && (typeof o['value'] !== 'string' || o['value'] === '')) add('value', 'required');
  } else {
    if (o['spec_version'] !== '2.1') add('spec_version', 'must be 2.1');
    if (o['created'] === undefined) add('created', 'required');
    if (o['modified'] === undefined && type !== 'marking-definition') add('modified', 'required');
    for (const prop of required ?? []) if (o[prop] === undefined) add(prop, 'required');
  }

  for (const prop of TIMESTAMP_PROPERTIES) {
    const v = o[prop];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !isTimestamp(v)) add(prop, 'must be an RFC 3339 UTC timestamp');
  }
  if (typeof o['created'] === 'string' && typeof o['modified'] === 'string' && isTimestamp(o['created']) && isTimestamp(o['modified'])) {
    if (timeOf(o['modified']) < timeOf(o['created'])) add('modified', 'must not be earlier than created');
  }
  for (const prop of STRING_PROPERTIES) if (o[prop] !== undefined && typeof o[prop] !== 'string') add(prop, 'must be a string');
  if (o['is_family'] !== undefined && typeof o['is_family'] !== 'boolean') add('is_family', 'must be true or false');
  if (type === 'malware' && o['is_family'] === true && typeof o['name'] !== 'string') add('name', 'required for a malware family');
  if (type === 'opinion' && o['opinion'] !== undefined && !(OPINIONS as readonly unknown[]).includes(o['opinion'])) add('opinion', 'not one of the allowed values');
  if (o['confidence'] !== undefined && !(Number.isInteger(o['confidence']) && (o['confidence'] as number) >= 0 && (o['confidence'] as number) <= 100))
    add('confidence', 'must be an integer from 0 to 100');
  if (type === 'observed-data' && !(Number.isInteger(o['number_observed']) && (o['number_observed'] as number) >= 1)) add('number_observed', 'must be a positive integer');

  for (const [prop, v] of Object.entries(o)) {
    if (prop.endsWith('_ref') && !isIdentifier(v)) add(prop, 'must be an identifier');
    if (prop.endsWith('_refs')) {
      if (!Array.isArray(v)) add(prop, 'must be a list of identifiers');
      else if (v.length === 0 && (required ?? []).includes(prop)) add(prop, 'must not be empty');
      else v.forEach((ref, i) => isIdentifier(ref) || add(`${prop}[${i}]`, 'must be an identifier'));
    }
  }
  if (o['created_by_ref'] !== undefined && isIdentifier(o['created_by_ref']) && !isIdentifier(o['created_by_ref'], 'identity'))
    add('created_by_ref', 'must refer to an identity');

  const refs = o['external_references'];
  if (refs !== undefined) {
    if (!Array.isArray(refs)) add('external_references', 'must be a list');
    else
      refs.forEach((r: unknown, i) => {
        if (typeof r !== 'object' || r === null || typeof (r as Record<string, unknown>)['source_name'] !== 'string')
          add(`external_references[${i}].source_name`, 'required');
      });
  }
  const phases = o['kill_chain_phases'];
  if (phases !== undefined) {
    if (!Array.isArray(phases)) add('kill_chain_phases', 'must be a list');
    else
      phases.forEach((ph: unknown, i) => {
        const p = (typeof ph === 'object' && ph !== null ? ph : {}) as Record<string, unknown>;
        if (typeof p['kill_chain_name'] !== 'string') add(`kill_chain_phases[${i}].kill_chain_name`, 'required');
        if (typeof p['phase_name'] !== 'string') add(`kill_chain_phases[${i}].phase_name`, 'required');
      });
  }
}

function isTimestamp(v: string): boolean {
  const m = TIMESTAMP.exec(v);
  return m !== null && validTimestampParts(m);
}

function timeOf(v: string): number {
  return Date.parse(stixTimestamp(v));
}
