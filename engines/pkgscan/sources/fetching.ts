// GETs from a configured lab mirror: its own origin only, at most 3 same-origin redirects, a size cap read as the body streams, a time limit.
import { createHash } from 'node:crypto';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { VitrineError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json-text.js';

export interface MirrorSettings {
  /** The mirror's base URL (http or https). */
  readonly url: string;
  /** Time limit of one request, body included (default 60 s). */
  readonly timeoutMs?: number | undefined;
  /** Largest archive taken from the mirror (default and ceiling: the store's 256 MiB). */
  readonly maxBytes?: number | undefined;
  /** Where downloaded archives are parsed (the service's worker pool); without it, in this process. */
  readonly jobs?: JobRunner | undefined;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 3;

export interface MirrorGet {
  readonly accept: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

export interface MirrorResponse {
  /** The URL that answered (after redirects): relative links resolve against it. */
  readonly url: URL;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** The base URL with a trailing slash, or a validation error that does not repeat it. */
export function mirrorBase(url: string, variable: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new VitrineError('validation_failed', `${variable} is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new VitrineError('validation_failed', `${variable} must be an http or https URL`);
  if (u.username !== '' || u.password !== '') throw new VitrineError('validation_failed', `${variable} must not carry credentials`);
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

function failure(err: unknown, timeout: AbortSignal, caller: AbortSignal | undefined): VitrineError {
  if (err instanceof VitrineError) return err;
  if (caller?.aborted) return new VitrineError('cancelled', 'the request to the package mirror was cancelled');
  if (timeout.aborted) return new VitrineError('timeout', 'the package mirror did not answer in time');
  return new VitrineError('unavailable', 'the package mirror cannot be reached', { cause: err });
}

async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new VitrineError('payload_too_large', 'the package mirror sent more than the size limit allows');
  }
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new VitrineError('payload_too_large', 'the package mirror sent more than the size limit allows');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** GET on the mirror's origin; null on 404 and 410 (the mirror does not hold it). */
export async function mirrorGet(url: URL, origin: string, req: MirrorGet): Promise<MirrorResponse | null> {
  if (url.origin !== origin) throw new VitrineError('validation_failed', 'the package mirror pointed at another host; only its own origin is fetched');
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, { redirect: 'manual', headers: { accept: req.accept }, signal });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (location === null) throw new VitrineError('unavailable', 'the package mirror sent a redirect without a location');
        if (hop >= MAX_REDIRECTS) throw new VitrineError('unavailable', 'the package mirror redirected too many times');
        const next = new URL(location, current);
        if (next.origin !== origin) throw new VitrineError('validation_failed', 'the package mirror redirected to another host; only its own origin is fetched');
        current = next;
        continue;
      }
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return null;
      }
      if (res.status < 200 || res.status >= 300) {
        await res.body?.cancel();
        throw new VitrineError('unavailable', 'the package mirror answered with an error status');
      }
      const bytes = await readCapped(res, req.maxBytes);
      return { url: current, contentType: (res.headers.get('content-type') ?? '').toLowerCase(), bytes };
    }
  } catch (err) {
    throw failure(err, timeout, req.signal);
  }
}

/** JSON from bytes, or a parse error that does not quote them. */
export function parseJson(bytes: Uint8Array, what: string): unknown {
  return parseJsonText(new TextDecoder('utf-8', { fatal: false }).decode(bytes), 'parse_error', `the package mirror's ${what} is not valid JSON`);
}

/** Bytes hashed between two turns of the event loop. */
export const DIGEST_SLICE_BYTES = 1024 * 1024;

/** The digest of `bytes`, fed to the hash a slice at a time with a turn of the event loop between slices. */
export async function digestInSlices(alg: string, bytes: Uint8Array): Promise<Buffer> {
  const hash = createHash(alg);
  for (let at = 0; at < bytes.length; at += DIGEST_SLICE_BYTES) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(at, at + DIGEST_SLICE_BYTES));
  }
  return hash.digest();
}
