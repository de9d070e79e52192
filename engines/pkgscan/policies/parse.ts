// Reads a policy document sent as an object or as YAML text, and reports every problem with its JSON path and, for text, its line and column.
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { PolicyIssue, PolicyValidation } from '../../core/contracts/pkgscan.js';
import { canonicalHash } from '../../core/canonical.js';
import { formatPath, issuesToDetails } from '../../core/validation.js';
import { codeRegistry, isKnownCode, type CodeRegistry } from './codes.js';
import { policyDocumentSchema, type PolicyDocument } from './schema.js';

export const MAX_POLICY_TEXT = 200_000;

export interface ParsedPolicy extends PolicyValidation {
  /** The checked document when valid. */
  readonly document?: PolicyDocument;
  /** The YAML text as sent (undefined for an object). */
  readonly source?: string;
}

/** The deepest node along `path` that exists, for a location. */
function nodeAt(doc: Document, path: readonly PropertyKey[]): Node | undefined {
  let node: unknown = doc.contents;
  let found: Node | undefined = doc.contents ?? undefined;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const k: unknown = p.key;
        const key = typeof k === 'object' && k !== null && 'value' in k ? (k as { value: unknown }).value : k;
        return String(key) === String(part);
      });
      if (!pair) break;
      const value: unknown = pair.value;
      found = (value ?? pair.key) as Node;
      node = value;
    } else if (isSeq(node) && typeof part === 'number') {
      const item: unknown = node.items[part];
      if (item === undefined) break;
      found = item as Node;
      node = item;
    } else break;
  }
  return found;
}

/** Where the key at the end of `path` starts. */
function keyOffset(doc: Document, path: readonly PropertyKey[]): number | undefined {
  const parent = nodeAt(doc, path.slice(0, -1));
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find((p) => {
    const k: unknown = p.key;
    const key = typeof k === 'object' && k !== null && 'value' in k ? (k as { value: unknown }).value : k;
    return String(key) === String(path[path.length - 1]);
  });
  const key: unknown = pair?.key;
  return typeof key === 'object' && key !== null && 'range' in key ? (key as { range?: [number, number, number] }).range?.[0] : undefined;
}

function located(issue: { path: string; issue: string }, where: { line: number; col: number } | undefined): PolicyIssue {
  return where ? { ...issue, line: where.line, col: where.col } : issue;
}

interface ZodLikeIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/** Finding codes and risk dimensions no scan gives: a rule naming one could never fire. */
function unknownNames(d: PolicyDocument, registry: CodeRegistry): { path: PropertyKey[]; issue: string }[] {
  const out: { path: PropertyKey[]; issue: string }[] = [];
  for (const list of ['block', 'warn', 'ignore'] as const)
    (d.findings?.[list] ?? []).forEach((c, i) => {
      if (!isKnownCode(registry, c)) out.push({ path: ['findings', list, i], issue: 'not a finding code any analyzer gives (see the code registry in docs/pkgscan-analyzers.md)' });
    });
  for (const dim of Object.keys(d.risk_dimensions ?? {}))
    if (!registry.dimensions.includes(dim)) out.push({ path: ['risk_dimensions', dim], issue: `not a risk dimension; known: ${registry.dimensions.join(', ')}` });
  return out;
}

/** Validates the parsed value; locations come from the YAML document when there is one. */
function check(value: unknown, doc: Document | undefined, counter: LineCounter | undefined, registry: CodeRegistry): { errors: PolicyIssue[]; document?: PolicyDocument } {
  const result = policyDocumentSchema.safeParse(value);
  if (result.success) {
    const unknown = unknownNames(result.data, registry);
    if (unknown.length === 0) return { errors: [], document: result.data };
    return {
      errors: unknown.slice(0, 100).map((u) => {
        // A mapping key's own position (risk_dimensions.<name>) is the key, not its value.
        const node = doc ? nodeAt(doc, u.path) : undefined;
        const offset = u.path[0] === 'risk_dimensions' && doc ? keyOffset(doc, u.path) : node?.range?.[0];
        return located({ path: formatPath(u.path), issue: u.issue }, offset !== undefined && counter ? counter.linePos(offset) : undefined);
      }),
    };
  }
  const errors: PolicyIssue[] = [];
  for (const raw of result.error.issues as unknown as ZodLikeIssue[]) {
    // Our own refinements carry messages we wrote; zod's messages may quote input, so those are rebuilt from codes.
    const described = raw.code === 'custom' ? [{ path: formatPath(raw.path), issue: raw.message }] : issuesToDetails([raw]);
    for (const d of described) {
      const fullPath = raw.code === 'unrecognized_keys' && raw.keys ? [...raw.path, ...raw.keys.slice(0, 1)] : raw.path;
      const node = doc ? nodeAt(doc, fullPath) : undefined;
      const offset = node?.range?.[0];
      errors.push(located(d, offset !== undefined && counter ? counter.linePos(offset) : undefined));
      if (errors.length >= 100) break;
    }
  }
  return { errors };
}

/** Parses and checks a policy: `input` is the document object or its YAML (or JSON) text. Never throws for bad input. */
export function parsePolicy(input: unknown, registry: CodeRegistry = codeRegistry()): ParsedPolicy {
  if (typeof input === 'string') {
    if (input.length > MAX_POLICY_TEXT) return { valid: false, errors: [{ path: '', issue: `policy text must be at most ${MAX_POLICY_TEXT} characters` }], hash: null };
    const counter = new LineCounter();
    const doc = parseDocument(input, { lineCounter: counter, prettyErrors: false, uniqueKeys: true, strict: true });
    if (doc.errors.length > 0) {
      const errors = doc.errors.slice(0, 20).map((e): PolicyIssue => {
        const pos = counter.linePos(e.pos[0]);
        // The code names the YAML problem (for example DUPLICATE_KEY); the yaml message may quote the text, so it is not used.
        const issue = `YAML: ${e.code.toLowerCase().replace(/_/g, ' ')}`;
        return { path: '', issue, line: pos.line, col: pos.col };
      });
      return { valid: false, errors, hash: null, source: input };
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 50 });
    } catch {
      return { valid: false, errors: [{ path: '', issue: 'YAML: too many aliases or unreadable document' }], hash: null, source: input };
    }
    return finish(value, check(value, doc, counter, registry), input);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { valid: false, errors: [{ path: '', issue: 'expected an object or YAML text' }], hash: null };
  return finish(input, check(input, undefined, undefined, registry), undefined);
}

function finish(value: unknown, checked: { errors: PolicyIssue[]; document?: PolicyDocument }, source: string | undefined): ParsedPolicy {
  let hash: string | null;
  try {
    hash = canonicalHash(checked.document ?? value);
  } catch {
    hash = null;
  }
  return {
    valid: checked.errors.length === 0,
    errors: checked.errors,
    hash,
    ...(checked.document ? { document: checked.document } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}
