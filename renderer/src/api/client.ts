// Typed HTTP client for the gateway: adds the bearer token, parses the house error shape into ApiError.
import type { ErrorBody, RendererBridge } from '../../../engines/core/contracts/gateway';

export type IssueDetail = { readonly path: string; readonly issue: string };

/** Codes the client itself assigns when the gateway gave no error body. */
export type ClientErrorCode = 'unreachable' | 'bad_response';

/** Any failed call: the gateway's `{error:{code,message,request_id,details}}`, or a client-side reason. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the gateway did not answer at all. */
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: readonly IssueDetail[];

  constructor(status: number, code: string, message: string, requestId?: string, details: readonly IssueDetail[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.details = details;
  }

  get unauthorized(): boolean {
    return this.status === 401;
  }

  get unreachable(): boolean {
    return this.status === 0;
  }
}

/** Any failure as an ApiError: itself, or `message` (default: the answer could not be read) for anything else, such as a parse error. */
export function asApiError(err: unknown, message = 'The answer could not be read.'): ApiError {
  return err instanceof ApiError ? err : new ApiError(0, 'bad_response', message);
}

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export interface RequestOptions {
  readonly query?: Query;
  readonly signal?: AbortSignal;
  /**
   * A service's own bearer token (pkgscan's user JWT): sent as `Authorization`, and the gateway token then travels
   * as X-Vitrine-Token, which the gateway checks and removes before the service sees the request.
   */
  readonly userToken?: string;
  /** Send and accept same-origin cookies (pkgscan's httpOnly refresh cookie); omitted otherwise. */
  readonly withCredentials?: boolean;
}

export interface ApiClient {
  readonly apiBase: string;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** The raw response of a successful call (for streams); errors are thrown as ApiError like the others. */
  open(path: string, options?: RequestOptions & { readonly accept?: string }): Promise<Response>;
  /** POSTs raw bytes (application/octet-stream) with upload progress; the JSON answer and errors read as above. */
  upload<T>(path: string, body: Blob, options?: UploadOptions): Promise<T>;
}

/** Where an upload is: sending bytes (fraction when known), then waiting while the service works. */
export type UploadProgress = { readonly phase: 'uploading'; readonly fraction?: number } | { readonly phase: 'analysing' };

export interface UploadOptions {
  readonly query?: Query;
  readonly onProgress?: (progress: UploadProgress) => void;
  readonly signal?: AbortSignal;
  /** A service's own bearer token, as in RequestOptions: sent as Authorization, the gateway token as X-Vitrine-Token. */
  readonly userToken?: string;
}

const UNREACHABLE = 'The gateway did not answer. Is `vitrine serve` (or the desktop app) still running?';

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const e = (value as { error?: unknown }).error;
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' && typeof (e as { message?: unknown }).message === 'string';
}

function toDetails(raw: unknown): IssueDetail[] {
  if (!Array.isArray(raw)) return [];
  const out: IssueDetail[] = [];
  for (const d of raw as unknown[]) {
    if (typeof d !== 'object' || d === null) continue;
    const { path, issue } = d as { path?: unknown; issue?: unknown };
    if (typeof path === 'string' && typeof issue === 'string') out.push({ path, issue });
  }
  return out;
}

/** Turns a failed response into an ApiError, whatever its body holds. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const headerId = res.headers.get('x-request-id') ?? undefined;
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (isErrorBody(body)) {
    const e = body.error;
    return new ApiError(res.status, e.code, e.message, e.request_id || headerId, toDetails(e.details));
  }
  // No house error body (a proxy, a crash page): say what we know, not what the body said.
  return new ApiError(res.status, res.status === 401 ? 'unauthorized' : 'bad_response', `The gateway answered HTTP ${res.status} without an error description.`, headerId);
}

export function buildUrl(apiBase: string, path: string, query?: Query): string {
  const base = apiBase.replace(/\/+$/, '');
  const p = path.startsWith('/') ? path : `/${path}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return `${base}${p}${qs ? `?${qs}` : ''}`;
}

export function createApiClient(bridge: RendererBridge, fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a)): ApiClient {
  async function send(method: string, path: string, options: RequestOptions & { body?: unknown; accept?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
    if (options.userToken !== undefined) {
      headers['X-Vitrine-Token'] = bridge.token;
      headers['Authorization'] = `Bearer ${options.userToken}`;
    } else headers['Authorization'] = `Bearer ${bridge.token}`;
    const init: RequestInit = { method, headers, cache: 'no-store', credentials: options.withCredentials === true ? 'same-origin' : 'omit' };
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    let res: Response;
    try {
      res = await fetchImpl(buildUrl(bridge.apiBase, path, options.query), init);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiError(0, 'unreachable', UNREACHABLE);
    }
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }

  async function json<T>(res: Response): Promise<T> {
    if (res.status === 204) return undefined as T;
    try {
      return (await res.json()) as T;
    } catch {
      throw new ApiError(res.status, 'bad_response', 'The gateway answered with something that is not JSON.', res.headers.get('x-request-id') ?? undefined);
    }
  }

  return {
    apiBase: bridge.apiBase,
    get: async <T>(path: string, options?: RequestOptions) => json<T>(await send('GET', path, options)),
    post: async <T>(path: string, body: unknown, options?: RequestOptions) => json<T>(await send('POST', path, { ...options, body })),
    put: async <T>(path: string, body: unknown, options?: RequestOptions) => json<T>(await send('PUT', path, { ...options, body })),
    patch: async <T>(path: string, body: unknown, options?: RequestOptions) => json<T>(await send('PATCH', path, { ...options, body })),
    delete: async <T>(path: string, options?: RequestOptions) => json<T>(await send('DELETE', path, options)),
    open: (path, options) => send('GET', path, options),
    upload: <T>(path: string, body: Blob, options: UploadOptions = {}) => upload<T>(bridge, path, body, options),
  };
}

/** XMLHttpRequest, not fetch: only it reports upload progress. Errors become the same ApiError as every other call. */
function upload<T>(bridge: RendererBridge, path: string, body: Blob, options: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(bridge.apiBase, path, options.query));
    if (options.userToken !== undefined) {
      xhr.setRequestHeader('X-Vitrine-Token', bridge.token);
      xhr.setRequestHeader('Authorization', `Bearer ${options.userToken}`);
    } else xhr.setRequestHeader('Authorization', `Bearer ${bridge.token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => options.onProgress?.({ phase: 'uploading', ...(e.lengthComputable && e.total > 0 ? { fraction: e.loaded / e.total } : {}) });
    // Every byte is sent: from here the service is working (its job events carry the progress).
    xhr.upload.onload = () => options.onProgress?.({ phase: 'analysing' });
    xhr.onerror = () => reject(new ApiError(0, 'unreachable', UNREACHABLE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    xhr.onload = () => {
      const headers = new Headers();
      const id = xhr.getResponseHeader('x-request-id');
      if (id) headers.set('x-request-id', id);
      if (xhr.status < 200 || xhr.status >= 300) {
        void errorFromResponse(new Response(xhr.responseText, { status: xhr.status, headers })).then(reject, reject);
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as T);
      } catch {
        reject(new ApiError(xhr.status, 'bad_response', 'The gateway answered with something that is not JSON.', id ?? undefined));
      }
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    options.onProgress?.({ phase: 'uploading', fraction: 0 });
    xhr.send(body);
  });
}

/** A list route may answer a bare array or a page `{items,...}`; both become an array. */
export function itemsOf<T>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (typeof value === 'object' && value !== null) {
    const v = value as { items?: unknown; services?: unknown; jobs?: unknown };
    for (const key of [v.items, v.services, v.jobs]) if (Array.isArray(key)) return key as T[];
  }
  return [];
}
