// Submitted project files: the limits (50 files, 1 MB each, 5 MB in all), path checks, and which reader each file goes to.
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { declaredFormatFor, formatFor, KNOWN_FILE_NAMES, type DeclaredFormat, type ManifestFormat } from '../../core/manifests/index.js';
import { validate } from '../../core/validation.js';
import { C0_DEL, hasControlCharacter } from '../../core/control-characters.js';

/**
 * A requirements file's name (`requirements.txt`, `dev-requirements.in`, `constraints-3.11.txt`, `reqs.txt`), checked
 * from its `.txt`/`.in` end with a look-behind read once, not from each `requirements` in a long name.
 */
export const REQUIREMENTS_NAME = /\.(?:txt|in)$(?<=(?:^|[-_.])(?:requirements|constraints|reqs)(?:[-_.][^/]*)?\.(?:txt|in))/i;

/** The spec's limits; MB is taken as 10^6 bytes of UTF-8 (the container limit is the one the spec gives in MiB). */
export const MAX_FILES = 50;
export const MAX_FILE_BYTES = 1_000_000;
export const MAX_TOTAL_BYTES = 5_000_000;
/**
 * The JSON body limit the scan route needs: 5 MB of text can double when JSON-escaped (newlines, quotes, backslashes),
 * plus the keys; anything larger cannot hold a submission within the limits above.
 */
export const PROJECT_SCAN_BODY_LIMIT = 12 * 1024 * 1024;

export type FileKind =
  | { readonly kind: 'lock'; readonly format: ManifestFormat }
  | { readonly kind: 'declared'; readonly format: DeclaredFormat }
  | { readonly kind: 'dockerfile' }
  | { readonly kind: 'compose' }
  | { readonly kind: 'npmrc' }
  | { readonly kind: 'skipped' };

const KNOWN = new Set(KNOWN_FILE_NAMES.map((n) => n.toLowerCase()));

export function baseName(path: string): string {
  return path.split('/').pop() ?? path;
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}

/** Which reader a submitted file goes to, by its base name. */
export function classifyFile(path: string): FileKind {
  const base = baseName(path);
  const lower = base.toLowerCase();
  if (KNOWN.has(lower)) return { kind: 'lock', format: formatFor(base) };
  const declared = declaredFormatFor(base);
  if (declared !== undefined) return { kind: 'declared', format: declared };
  // the manifests library reads any other name as a requirements file: only send it names that are one
  if (REQUIREMENTS_NAME.test(lower) || (/\.txt$/i.test(lower) && /(^|\/)requirements\//i.test(path))) return { kind: 'lock', format: 'requirements' };
  if (/^(dockerfile|containerfile)([._-].*)?$/i.test(base) || /\.(dockerfile|containerfile)$/i.test(lower)) return { kind: 'dockerfile' };
  if (/^(docker-)?compose([._-][^/]*)?\.ya?ml$/i.test(lower)) return { kind: 'compose' };
  if (lower === '.npmrc') return { kind: 'npmrc' };
  return { kind: 'skipped' };
}

const ENVIRONMENT = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/);

export const projectScanSchema = z.strictObject({
  files: z.record(z.string(), z.string()),
  environment: ENVIRONMENT.optional(),
});

export interface SubmittedFile {
  readonly path: string;
  readonly text: string;
  readonly bytes: number;
}

/** A relative path with `/` separators, no `.`/`..` segment, no control characters, at most 512 characters. */
export function normalPath(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > 512 || hasControlCharacter(raw, C0_DEL)) return undefined;
  const p = raw.replace(/\\/g, '/').replace(/^\.\/+/, '');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined;
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return p;
}

/** Validates a scan request and enforces the limits: 413 over a limit, 422 for a bad shape or path. Never echoes a path. */
export function checkSubmission(body: unknown): { files: SubmittedFile[]; environment: string | undefined } {
  const req = validate(projectScanSchema, body, 'project scan');
  const entries = Object.entries(req.files);
  if (entries.length === 0) throw new VitrineError('validation_failed', 'files must hold at least one file', { details: [{ path: 'files', issue: 'empty' }] });
  if (entries.length > MAX_FILES) throw new VitrineError('payload_too_large', `a project scan takes at most ${MAX_FILES} files`, { details: [{ path: 'files', issue: 'too many files' }] });
  const files: SubmittedFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  entries.forEach(([raw, text], i) => {
    const path = normalPath(raw);
    if (path === undefined || seen.has(path)) throw new VitrineError('validation_failed', 'each file key must be a distinct relative path', { details: [{ path: `files[${i}]`, issue: 'not a distinct relative path' }] });
    seen.add(path);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_FILE_BYTES) throw new VitrineError('payload_too_large', `each file may hold at most ${MAX_FILE_BYTES} bytes`, { details: [{ path: `files[${i}]`, issue: 'file too large' }] });
    total += bytes;
    files.push({ path, text, bytes });
  });
  if (total > MAX_TOTAL_BYTES) throw new VitrineError('payload_too_large', `the files may hold at most ${MAX_TOTAL_BYTES} bytes in all`, { details: [{ path: 'files', issue: 'total too large' }] });
  return { files, environment: req.environment };
}
