// Types of the gateway's own routes (/api/*), shared with the renderer (types only).

export interface ServiceInfo {
  /** `caseassess` */
  readonly name: string;
  /** `Case assessment` */
  readonly title: string;
  /** `Assessment` */
  readonly workspace: string;
  /** Where its routes are mounted, `/svc/caseassess`. */
  readonly base: string;
}

/** GET /api/health (no token needed). */
export interface GatewayHealth {
  readonly status: 'ok';
  readonly version: string;
  readonly uptime_s: number;
  readonly services: readonly ServiceInfo[];
  /**
   * Engine worker processes: `size` alive or starting, `busy` running a job, `queued` jobs waiting for a worker,
   * `starting` workers of `size` not ready for a job yet (a job queued behind them waits for their start).
   */
  readonly workers: { readonly size: number; readonly busy: number; readonly queued: number; readonly starting?: number };
}

/** GET /api/settings (token needed; paths are shown to the token holder, the local user, only). */
export interface GatewaySettings {
  readonly version: string;
  /** The data folder (VITRINE_HOME): the store, the token, uploads. */
  readonly dataDir: string;
  /** Where the Cases workspace may read evidence (FORENSIC_EVIDENCE_ROOT); null when unset. */
  readonly evidenceRoot: string | null;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One job as the status bar sees it: GET /api/jobs items and the `job` events of GET /api/events. */
export interface JobInfo {
  readonly id: string;
  readonly service: string;
  /** `<service>.<operation>` */
  readonly type: string;
  readonly label?: string;
  readonly state: JobState;
  /** 0..1 */
  readonly fraction: number;
  readonly message?: string;
  /** ISO 8601 */
  readonly started_at: string;
  readonly finished_at?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The error body of every route. */
export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly request_id: string;
    readonly details?: readonly { readonly path: string; readonly issue: string }[];
  };
}

/** What the preload bridge (Electron) or the URL fragment `#token=` (headless) gives the renderer. */
export interface RendererBridge {
  readonly apiBase: string;
  readonly token: string;
}
