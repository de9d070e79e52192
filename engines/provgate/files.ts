// Envelope files: load_envelopes (strict or lenient) and save_envelopes, plus the list parser the HTTP route shares.
import { readFileSync, statSync } from 'node:fs';
import { VitrineError } from '../core/errors.js';
import { writeFileAtomic } from '../core/output-file.js';
import { jsonShapeIssue } from '../core/json-text.js';
import { envelopeToJson, parseEnvelope, SignatureError, type Envelope, type LoadedEnvelope } from './envelope.js';

/** Largest envelope file read (bytes) and most entries in one list. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
export const MAX_ENVELOPES = 200_000;

/**
 * Parses a list of envelopes. Strict: a non-list or any malformed entry raises SignatureError (details name every bad entry).
 * Lenient: a malformed entry becomes a placeholder the collector rejects, so the gate blocks with a reason. A list that breaks
 * the JSON shape limits (JSON_SHAPE_LIMITS: nesting, members of an object, finite numbers) raises in both modes.
 */
export function parseEnvelopeList(value: unknown, lenient = false): LoadedEnvelope[] {
  if (!Array.isArray(value)) throw new SignatureError('an envelope file must hold a list of envelopes', [{ path: '', issue: 'expected a list' }]);
  if (value.length > MAX_ENVELOPES) throw new SignatureError(`at most ${MAX_ENVELOPES} envelopes in one list`, [{ path: '', issue: `at most ${MAX_ENVELOPES} items` }]);
  // The whole list, in both modes, before anything walks it recursively (the canonical hash POST /v1/gate stores).
  const shape = jsonShapeIssue(value);
  if (shape !== undefined) throw new SignatureError(`the envelope list has ${shape.issue}`, [shape]);
  const out: LoadedEnvelope[] = [];
  const bad: SignatureError[] = [];
  value.forEach((entry: unknown, index) => {
    try {
      out.push(parseEnvelope(entry, `[${index}]`));
    } catch (err) {
      if (!(err instanceof SignatureError)) throw err;
      if (lenient) out.push({ malformed: true, index, issue: err.details?.[0]?.issue ?? 'malformed envelope' });
      else bad.push(err);
    }
  });
  if (bad.length > 0) {
    const details = bad.flatMap((e) => e.details ?? []).slice(0, 50);
    throw new SignatureError(`${bad.length} malformed envelope${bad.length === 1 ? '' : 's'}; first ${bad[0]?.message ?? ''}`, details);
  }
  return out;
}

/** Reads a JSON envelope file (a list; a leading byte-order mark is allowed). Not verified yet. */
export function loadEnvelopes(file: string, lenient = false): LoadedEnvelope[] {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) throw new VitrineError('payload_too_large', 'the envelope file is too large');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('bad_request', 'the envelope file cannot be read', { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw new SignatureError('the envelope file is not valid JSON', [{ path: '', issue: 'not valid JSON' }]);
  }
  return parseEnvelopeList(value, lenient);
}

/** Writes envelopes as a JSON list, each in its own layout. */
export function saveEnvelopes(envs: readonly Envelope[], file: string): void {
  writeFileAtomic(file, `${JSON.stringify(envs.map(envelopeToJson), null, 1)}\n`);
}
