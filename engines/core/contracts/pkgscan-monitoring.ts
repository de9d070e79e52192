// The monitoring HTTP bodies (/monitoring/packages...), shared with the renderer as types only.

/** What one check found: the first check, nothing newer, a newer release (with its diff), or a failure. */
export type MonitorResult = 'baseline' | 'unchanged' | 'new_release' | 'error';

/** Who ran a check: the scheduled worker or a caller (POST check). */
export type MonitorTrigger = 'scheduled' | 'manual';

/** What the last successful check saw. */
export interface MonitorSnapshot {
  /** Every version the sources knew (at most 2000, newest kept). */
  readonly versions: readonly string[];
  /** The newest version (a stable one when any exists). */
  readonly newest: string | null;
  /** People declared for the newest release, as `name <email>` (the registry's at baseline; the diff's afterwards). */
  readonly maintainers: readonly string[];
  /** Sources that answered: `store`, `npm-mirror`, `pypi-mirror`. */
  readonly sources: readonly string[];
  readonly seen_at: string;
}

export interface MonitorErrorInfo {
  readonly code: string;
  readonly message: string;
}

/** One watched package (GET /monitoring/packages/{id}; list rows are the same). */
export interface WatchedPackage {
  readonly id: string;
  readonly ecosystem: 'npm' | 'pypi';
  readonly name: string;
  /** The release new ones are compared with; null: the last one seen. */
  readonly approved_version: string | null;
  readonly poll_interval_seconds: number;
  readonly project_id: string | null;
  readonly enabled: boolean;
  /** The last check failed. */
  readonly failing: boolean;
  readonly consecutive_failures: number;
  readonly last_result: MonitorResult | null;
  readonly last_error: MonitorErrorInfo | null;
  readonly last_diff_id: string | null;
  readonly last_check_at: string | null;
  /** When the worker checks next (interval after a success; backed off after failures). */
  readonly next_check_at: string;
  readonly snapshot: MonitorSnapshot | null;
  readonly created_by: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** POST /monitoring/packages/{id}/check answer, and a row of the checks history. */
export interface MonitorCheck {
  readonly id: string;
  readonly package_id: string;
  readonly trigger: MonitorTrigger;
  readonly result: MonitorResult;
  readonly checked_at: string;
  /** The newest version seen (null on an error). */
  readonly newest_version: string | null;
  /** Versions not seen before this check. */
  readonly new_versions: readonly string[];
  /** new_release: the versions compared and the stored release diff. */
  readonly from_version: string | null;
  readonly to_version: string | null;
  readonly diff_id: string | null;
  readonly escalated: boolean | null;
  readonly error: MonitorErrorInfo | null;
  /** The failure count after this check (0 after a success). */
  readonly consecutive_failures: number;
  readonly next_check_at: string;
  /** Ids of the events this check published. */
  readonly events: readonly string[];
  readonly duration_ms: number;
}
