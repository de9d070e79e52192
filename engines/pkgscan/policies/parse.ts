// Reads a policy document sent as an object or as YAML text, and reports every problem with its JSON path and, for text, its line and column.
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { PolicyIssue, PolicyValidation } from '../../core/contracts/pkgscan.js';
import { canonicalHash } from '../../core/canonical.js';
import { formatPath, issuesToDetails } from '../../core/validation.js';
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

function located(issue: { path: string; issue: string }, where: { line: number; col: number } | undefined): PolicyIssue {
  return where ? { ...issue, line: where.line, col: where.col } : issue;
}

interface ZodLikeIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/** Validates the parsed value; locations come from the YAML document when there is one. */
function check(value: unknown, doc: Document | undefined, counter: LineCounter | undefined): { errors: PolicyIssue[]; document?: PolicyDocument } {
  const result = policyDocumentSchema.safeParse(value);
  if (result.success) return { errors: [], document: result.data };
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
export function parsePolicy(input: unknown): ParsedPolicy {
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
    return finish(value, check(value, doc, counter), input);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { valid: false, errors: [{ path: '', issue: 'expected an object or YAML text' }], hash: null };
  return finish(input, check(input, undefined, undefined), undefined);
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
