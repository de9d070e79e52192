// Writes Cypher (Neo4j) scripts from graphs with escaping that keeps data inside literals: idempotent MERGE statements.
import { C0_DEL_C1_SEPARATORS, isControlCode } from './control-characters.js';
import { VitrineError } from './errors.js';
import { setOwn } from './own.js';

/** A property value Neo4j can store: a scalar, or a list of one scalar kind. */
export type CypherScalar = string | number | boolean;
export type CypherValue = CypherScalar | null | readonly CypherScalar[];
export type CypherProperties = Readonly<Record<string, CypherValue | undefined>>;

export interface CypherNode {
  /** Stored as the `id` property and used as the MERGE key. */
  readonly id: string | number;
  readonly labels: readonly string[];
  readonly properties?: CypherProperties;
}

export interface CypherEdge {
  readonly from: string | number;
  readonly to: string | number;
  readonly type: string;
  /** An `id` here makes it part of the MERGE key, so parallel edges of one type stay apart. */
  readonly properties?: CypherProperties;
}

export interface CypherGraph {
  readonly nodes: readonly CypherNode[];
  readonly edges: readonly CypherEdge[];
}

export interface ToCypherOptions {
  /** Emit `CREATE CONSTRAINT IF NOT EXISTS ... REQUIRE n.id IS UNIQUE` for every label first (Neo4j 4.4+). */
  readonly constraints?: boolean;
  /** One comment line at the top (line breaks are flattened). */
  readonly header?: string;
}

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Words that are safer backtick-quoted wherever they appear as names. */
const RESERVED = new Set(
  (
    'ALL AND AS ASC ASCENDING BY CALL CASE CONSTRAINT CONTAINS COUNT CREATE CSV DELETE DESC DESCENDING DETACH DISTINCT DO DROP ' +
    'ELSE END ENDS EXISTS FALSE FOR FOREACH FROM IN INDEX IS KEY LIMIT LOAD MANDATORY MATCH MERGE NODE NOT NULL OF ON OPTIONAL OR ' +
    'ORDER REMOVE REQUIRE RETURN SCALAR SET SHOW SKIP STARTS THEN TRUE UNION UNIQUE UNWIND USE WHEN WHERE WITH XOR YIELD'
  ).split(' '),
);

/** A single-quoted Cypher string: backslash and quotes escaped, control and format characters as \uXXXX. */
export function cypherString(s: string): string {
  let out = "'";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] ?? '';
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '"') out += '\\"';
    else if (isControlCode(c, C0_DEL_C1_SEPARATORS)) out += unicodeEscape(c);
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) {
      out += ch + (s[i + 1] ?? '');
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += unicodeEscape(c); // a lone surrogate cannot be written as UTF-8
    else out += ch;
  }
  return `${out}'`;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function unicodeEscape(c: number): string {
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

/**
 * A label, relationship type or property key: as is when plain, else backtick-quoted with backticks doubled.
 * Refuses names with a backslash or NUL: some Neo4j versions decode \u0060 inside backticks, which would end the quote.
 */
export function cypherIdentifier(name: string): string {
  if (typeof name !== 'string' || name === '') throw new VitrineError('validation_failed', 'a Cypher name must not be empty');
  if (name.includes('\\') || name.includes('\u0000')) throw new VitrineError('validation_failed', 'a Cypher name must not contain a backslash or NUL');
  if (name.length > 1024) throw new VitrineError('validation_failed', 'a Cypher name must be at most 1024 characters');
  if (PLAIN_IDENTIFIER.test(name) && !RESERVED.has(name.toUpperCase())) return name;
  return `\`${name.replace(/`/g, '``')}\``;
}

/** A number as a Cypher literal: integers that fit int64 exactly as integers, everything else as a float. */
export function cypherNumber(n: number): string {
  if (!Number.isFinite(n)) throw new VitrineError('validation_failed', 'Cypher numbers must be finite');
  // Cypher exponents take no '+'; integers beyond 2^53 are imprecise in JS, so they are written as floats.
  const text = String(n).replace('e+', 'e');
  if (Number.isInteger(n) && !Number.isSafeInteger(n) && !text.includes('e')) return `${text}.0`;
  return text;
}

/** One property value. Lists must hold one scalar kind (Neo4j stores no mixed or nested lists). */
export function cypherValue(v: CypherValue): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return cypherString(v);
    case 'number':
      return cypherNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      break;
  }
  if (Array.isArray(v)) {
    const list = v as readonly unknown[];
    const kinds = new Set(list.map((x) => typeof x));
    if (list.some((x) => x === null || !['string', 'number', 'boolean'].includes(typeof x)))
      throw new VitrineError('validation_failed', 'Cypher list properties hold only strings, numbers or booleans');
    if (kinds.size > 1) throw new VitrineError('validation_failed', 'Cypher list properties must not mix kinds');
    return `[${(list as readonly CypherScalar[]).map((x) => cypherValue(x)).join(', ')}]`;
  }
  throw new VitrineError('validation_failed', 'Cypher properties hold scalars or lists, not nested objects');
}

/** `{key: value, ...}` with keys sorted (stable output); undefined members are left out. */
export function cypherMap(obj: CypherProperties): string {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new VitrineError('validation_failed', 'a Cypher map must be an object');
  const entries = Object.entries(obj)
    .filter((e): e is [string, CypherValue] => e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${cypherIdentifier(k)}: ${cypherValue(v)}`).join(', ')}}`;
}

function labelsOf(labels: readonly string[]): string {
  return labels.map((l) => `:${cypherIdentifier(l)}`).join('');
}

function idLiteral(id: string | number): string {
  if (typeof id === 'string') return cypherString(id);
  if (typeof id === 'number') return cypherNumber(id);
  throw new VitrineError('validation_failed', 'a node id must be a string or a number');
}

function withoutKey(props: CypherProperties | undefined, key: string): CypherProperties {
  const out: Record<string, CypherValue | undefined> = {};
  for (const [k, v] of Object.entries(props ?? {})) if (k !== key) setOwn(out, k, v);
  return out;
}

/**
 * A script of MERGE statements: running it twice leaves the same graph. Nodes merge on label(s) and
 * `id`; edges merge on their endpoints, type and (when given) their `id` property.
 */
export function toCypher(graph: CypherGraph, options: ToCypherOptions = {}): string {
  const lines: string[] = [];
  if (options.header !== undefined) lines.push(`// ${options.header.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
  const nodes = new Map<string, CypherNode>();
  for (const node of graph.nodes) {
    const key = idLiteral(node.id);
    if (nodes.has(key)) throw new VitrineError('validation_failed', 'two nodes share an id');
    if (node.properties && Object.prototype.hasOwnProperty.call(node.properties, 'id') && node.properties['id'] !== node.id)
      throw new VitrineError('validation_failed', "a node property named 'id' must equal the node id");
    nodes.set(key, node);
  }
  if (options.constraints === true) {
    const labels = [...new Set(graph.nodes.flatMap((n) => n.labels))].sort();
    for (const label of labels) lines.push(`CREATE CONSTRAINT IF NOT EXISTS FOR (n${labelsOf([label])}) REQUIRE n.id IS UNIQUE;`);
  }
  for (const node of nodes.values()) {
    const props = withoutKey(node.properties, 'id');
    const set = Object.values(props).some((v) => v !== undefined) ? ` SET n += ${cypherMap(props)}` : '';
    lines.push(`MERGE (n${labelsOf(node.labels)} {id: ${idLiteral(node.id)}})${set};`);
  }
  for (const edge of graph.edges) {
    const from = nodes.get(idLiteral(edge.from));
    const to = nodes.get(idLiteral(edge.to));
    if (!from || !to) throw new VitrineError('validation_failed', 'an edge refers to a node that is not in the graph');
    const edgeId = edge.properties?.['id'];
    const key = edgeId === undefined ? '' : ` {id: ${cypherValue(edgeId)}}`;
    const props = withoutKey(edge.properties, 'id');
    const set = Object.values(props).some((v) => v !== undefined) ? ` SET r += ${cypherMap(props)}` : '';
    lines.push(
      `MATCH (a${labelsOf(from.labels)} {id: ${idLiteral(edge.from)}}), (b${labelsOf(to.labels)} {id: ${idLiteral(edge.to)}}) ` +
        `MERGE (a)-[r:${cypherIdentifier(edge.type)}${key}]->(b)${set};`,
    );
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
