// The PostgreSQL schema of pkgscan: the same numbered migrations as the SQLite store (store.ts), written for PostgreSQL.
// Times stay ISO 8601 text and flags 0/1 integers, as on SQLite, so one repository's SQL reads the same rows on both.
import { GENESIS_HASH } from '../../core/ledger.js';

export interface PgMigration {
  readonly version: number;
  /** The same name as the SQLite migration of that number. */
  readonly name: string;
  readonly sql: string;
}

/** The append-only tables and the triggers that guard them (verify-audit checks they exist and are enabled). */
export const APPEND_ONLY_TABLES = ['pkgscan_audit'] as const;

/** The trigger names of an append-only table, the same names as on SQLite. */
export function guardTriggerNames(table: string): string[] {
  return [`${table}_no_update`, `${table}_no_delete`, `${table}_append_only`, `${table}_no_truncate`];
}

/** The function bodies the guards call; verify-audit compares the stored source with these. */
export const REFUSE_CHANGE_FN = 'pkgscan_refuse_change';
export const REFUSE_CHANGE_BODY = `BEGIN RAISE EXCEPTION 'append-only' USING ERRCODE = 'restrict_violation'; END;`;
export const APPEND_AT_END_FN = 'pkgscan_audit_append_at_end';
export const APPEND_AT_END_BODY = `DECLARE head RECORD; BEGIN SELECT seq, hash INTO head FROM pkgscan_audit ORDER BY seq DESC LIMIT 1; IF NEW.seq IS DISTINCT FROM COALESCE(head.seq, 0) + 1 OR NEW.prev_hash IS DISTINCT FROM COALESCE(head.hash, '${GENESIS_HASH}') THEN RAISE EXCEPTION 'append-only' USING ERRCODE = 'restrict_violation'; END IF; RETURN NEW; END;`;

export const pgMigrations: readonly PgMigration[] = [
  {
    version: 1,
    name: 'users, refresh tokens and signing keys',
    sql: `
      CREATE TABLE pkgscan_users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'security_analyst', 'developer', 'auditor', 'read_only')),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- SQLite's COLLATE NOCASE: one account per address whatever its case.
      CREATE UNIQUE INDEX pkgscan_users_email ON pkgscan_users (lower(email));
      CREATE TABLE pkgscan_refresh_tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES pkgscan_users (id) ON DELETE CASCADE,
        family_id TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        revoked_at TEXT,
        revoked_reason TEXT
      );
      CREATE INDEX pkgscan_refresh_tokens_user ON pkgscan_refresh_tokens (user_id);
      CREATE INDEX pkgscan_refresh_tokens_family ON pkgscan_refresh_tokens (family_id);
      CREATE TABLE pkgscan_keys (
        name TEXT PRIMARY KEY,
        secret BYTEA NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Fixed-window counters every server shares (failed logins per account, requests per client and per user).
      CREATE TABLE pkgscan_rate_buckets (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX pkgscan_rate_buckets_start ON pkgscan_rate_buckets (window_start);
    `,
  },
  {
    version: 2,
    name: 'audit chain',
    sql: `
      CREATE TABLE pkgscan_audit (
        seq BIGINT PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        payload TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX pkgscan_audit_kind ON pkgscan_audit (kind, seq);
      CREATE FUNCTION ${REFUSE_CHANGE_FN}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${REFUSE_CHANGE_BODY} $fn$;
      CREATE FUNCTION ${APPEND_AT_END_FN}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${APPEND_AT_END_BODY} $fn$;
      CREATE TRIGGER pkgscan_audit_no_update BEFORE UPDATE ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_no_delete BEFORE DELETE ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_no_truncate BEFORE TRUNCATE ON pkgscan_audit FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_append_only BEFORE INSERT ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${APPEND_AT_END_FN}();
    `,
  },
  {
    version: 3,
    name: 'security events',
    sql: `
      CREATE TABLE pkgscan_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        severity TEXT NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
        package TEXT,
        project TEXT,
        created_at TEXT NOT NULL,
        details_json TEXT NOT NULL DEFAULT '{}',
        acknowledged_by TEXT,
        acknowledged_at TEXT
      );
      CREATE INDEX pkgscan_events_time ON pkgscan_events (created_at DESC, id);
      CREATE INDEX pkgscan_events_type ON pkgscan_events (type, created_at DESC);
    `,
  },
  {
    version: 4,
    name: 'policies and exceptions',
    sql: `
      CREATE TABLE pkgscan_policies (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        environment TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
        document_json TEXT NOT NULL,
        source TEXT,
        hash TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 1,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX pkgscan_policies_one_active ON pkgscan_policies (environment) WHERE active = 1;
      CREATE TABLE pkgscan_exceptions (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        package TEXT NOT NULL,
        version_range TEXT,
        scope TEXT NOT NULL,
        environment TEXT,
        justification TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'revoked')),
        requested_by TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT
      );
      CREATE INDEX pkgscan_exceptions_package ON pkgscan_exceptions (ecosystem, package, status);
    `,
  },
  {
    version: 5,
    name: 'lookup cache',
    sql: `
      CREATE TABLE pkgscan_cache (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'package store',
    sql: `
      CREATE TABLE pkgscan_artifacts (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL CHECK (ecosystem IN ('npm', 'pypi')),
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        filename TEXT NOT NULL,
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        size BIGINT NOT NULL CHECK (size >= 0),
        source TEXT NOT NULL CHECK (source IN ('import', 'upload', 'npm-mirror', 'pypi-mirror')),
        registry_json TEXT,
        imported_at TEXT NOT NULL,
        imported_by TEXT NOT NULL,
        UNIQUE (ecosystem, name, version, sha256)
      );
      CREATE INDEX pkgscan_artifacts_package ON pkgscan_artifacts (ecosystem, name);
      CREATE INDEX pkgscan_artifacts_sha256 ON pkgscan_artifacts (sha256);
    `,
  },
  {
    version: 7,
    name: 'advisory store',
    sql: `
      CREATE TABLE vuln_advisories (
        id TEXT PRIMARY KEY,
        modified TEXT NOT NULL,
        published TEXT,
        withdrawn TEXT,
        summary TEXT NOT NULL,
        details TEXT NOT NULL,
        severity TEXT,
        score DOUBLE PRECISION,
        vector TEXT,
        severity_source TEXT,
        malicious INTEGER NOT NULL DEFAULT 0,
        json TEXT NOT NULL,
        import_id TEXT NOT NULL
      );
      CREATE TABLE vuln_affected (
        advisory_id TEXT NOT NULL,
        ecosystem TEXT NOT NULL,
        eco_base TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (advisory_id, ecosystem, name)
      );
      CREATE INDEX vuln_affected_package ON vuln_affected (eco_base, name);
      CREATE TABLE vuln_aliases (
        advisory_id TEXT NOT NULL,
        alias TEXT NOT NULL,
        PRIMARY KEY (advisory_id, alias)
      );
      CREATE INDEX vuln_aliases_alias ON vuln_aliases (alias);
      CREATE TABLE vuln_kev (
        cve TEXT PRIMARY KEY,
        date_added TEXT NOT NULL,
        due_date TEXT,
        ransomware_use TEXT NOT NULL,
        vendor_project TEXT,
        product TEXT,
        name TEXT,
        import_id TEXT NOT NULL
      );
      CREATE TABLE vuln_epss (
        cve TEXT PRIMARY KEY,
        score DOUBLE PRECISION NOT NULL,
        percentile DOUBLE PRECISION NOT NULL,
        score_date TEXT,
        model_version TEXT,
        import_id TEXT NOT NULL
      );
      CREATE TABLE vuln_nvd (
        cve TEXT PRIMARY KEY,
        last_modified TEXT,
        vector TEXT,
        score DOUBLE PRECISION,
        severity TEXT,
        import_id TEXT NOT NULL
      );
      CREATE TABLE vuln_imports (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        file_sha256 TEXT,
        records INTEGER NOT NULL DEFAULT 0,
        inserted INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        unchanged INTEGER NOT NULL DEFAULT 0,
        warnings INTEGER NOT NULL DEFAULT 0,
        warning_samples TEXT NOT NULL DEFAULT '[]',
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL DEFAULT 'running'
      );
      CREATE TABLE vuln_sources (
        source TEXT PRIMARY KEY,
        records INTEGER NOT NULL,
        last_import_id TEXT NOT NULL,
        last_import_at TEXT NOT NULL,
        data_date TEXT NOT NULL
      );
      CREATE TABLE vuln_meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO vuln_meta (key, value) VALUES ('generation', 0) ON CONFLICT (key) DO NOTHING;
      CREATE TABLE pkgscan_scan_advisories (
        scan_id TEXT NOT NULL,
        advisory_id TEXT NOT NULL,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (scan_id, advisory_id)
      );
      CREATE INDEX pkgscan_scan_advisories_advisory ON pkgscan_scan_advisories (advisory_id);
    `,
  },
  {
    version: 8,
    name: 'package scans',
    sql: `
      CREATE TABLE pkgscan_scans (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        environment TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        severity TEXT NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
        risk_score DOUBLE PRECISION NOT NULL,
        findings_count INTEGER NOT NULL,
        incomplete INTEGER NOT NULL CHECK (incomplete IN (0, 1)),
        package_sha256 TEXT NOT NULL,
        analyzer_version TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        verdict_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scans_time ON pkgscan_scans (created_at DESC, id);
      CREATE INDEX pkgscan_scans_package ON pkgscan_scans (ecosystem, name, version, environment, created_at DESC);
      CREATE TABLE pkgscan_scan_findings (
        scan_id TEXT NOT NULL REFERENCES pkgscan_scans (id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        severity TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scan_findings_code ON pkgscan_scan_findings (code);
      CREATE INDEX pkgscan_scan_findings_scan ON pkgscan_scan_findings (scan_id);
    `,
  },
  {
    version: 9,
    name: 'projects and project scans',
    sql: `
      CREATE TABLE pkgscan_projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Unique whatever the case, as SQLite's COLLATE NOCASE: a constraint, so racing creations cannot both win.
      CREATE UNIQUE INDEX pkgscan_projects_name ON pkgscan_projects (lower(name));
      CREATE TABLE pkgscan_project_scans (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES pkgscan_projects (id) ON DELETE CASCADE,
        environment TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        risk DOUBLE PRECISION NOT NULL,
        files_count INTEGER NOT NULL,
        components_count INTEGER NOT NULL,
        findings_count INTEGER NOT NULL,
        warnings_count INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        report_json TEXT NOT NULL,
        graph_json TEXT NOT NULL,
        sbom_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_project_scans_project ON pkgscan_project_scans (project_id, created_at DESC, id);
      CREATE TABLE pkgscan_project_components (
        scan_id TEXT NOT NULL REFERENCES pkgscan_project_scans (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        direct INTEGER NOT NULL CHECK (direct IN (0, 1)),
        component_json TEXT NOT NULL,
        PRIMARY KEY (scan_id, ordinal)
      );
      CREATE INDEX pkgscan_project_components_direct ON pkgscan_project_components (scan_id, direct, ordinal);
    `,
  },
  {
    version: 10,
    name: 'container scans',
    sql: `
      CREATE TABLE pkgscan_container_scans (
        id TEXT PRIMARY KEY,
        image_ref TEXT,
        status TEXT NOT NULL CHECK (status IN ('complete', 'incomplete')),
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        severity TEXT CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
        package_count INTEGER NOT NULL,
        finding_count INTEGER NOT NULL,
        upload_sha256 TEXT NOT NULL,
        upload_size BIGINT NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        report_json TEXT NOT NULL,
        sbom_json TEXT
      );
      CREATE INDEX pkgscan_container_scans_created ON pkgscan_container_scans (created_at DESC, id);
    `,
  },
  {
    version: 11,
    name: 'release diffs',
    sql: `
      CREATE TABLE pkgscan_diffs (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        from_version TEXT NOT NULL,
        to_version TEXT NOT NULL,
        analyzer_version TEXT NOT NULL,
        escalated INTEGER NOT NULL CHECK (escalated IN (0, 1)),
        maintainers_changed INTEGER NOT NULL CHECK (maintainers_changed IN (0, 1)),
        risk_from DOUBLE PRECISION NOT NULL,
        risk_to DOUBLE PRECISION NOT NULL,
        new_findings INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        diff_json TEXT NOT NULL,
        UNIQUE (ecosystem, name, from_version, to_version, analyzer_version)
      );
      CREATE INDEX pkgscan_diffs_time ON pkgscan_diffs (created_at DESC, id);
      CREATE INDEX pkgscan_diffs_package ON pkgscan_diffs (ecosystem, name, created_at DESC);
    `,
  },
  {
    version: 12,
    name: 'package monitoring',
    sql: `
      CREATE TABLE pkgscan_monitored (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        approved_version TEXT,
        poll_interval_seconds INTEGER NOT NULL CHECK (poll_interval_seconds BETWEEN 300 AND 604800),
        project_id TEXT REFERENCES pkgscan_projects (id) ON DELETE SET NULL,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        failing INTEGER NOT NULL DEFAULT 0 CHECK (failing IN (0, 1)),
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_result TEXT CHECK (last_result IN ('baseline', 'unchanged', 'new_release', 'error')),
        last_error_json TEXT,
        last_diff_id TEXT,
        last_check_at TEXT,
        next_check_at TEXT NOT NULL,
        claimed_by TEXT,
        claimed_until TEXT,
        snapshot_json TEXT,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (ecosystem, name)
      );
      CREATE INDEX pkgscan_monitored_due ON pkgscan_monitored (enabled, next_check_at);
      CREATE INDEX pkgscan_monitored_failing ON pkgscan_monitored (failing, created_at);
      CREATE TABLE pkgscan_monitor_checks (
        id TEXT PRIMARY KEY,
        package_id TEXT NOT NULL REFERENCES pkgscan_monitored (id) ON DELETE CASCADE,
        checked_at TEXT NOT NULL,
        result TEXT NOT NULL,
        diff_id TEXT,
        check_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_monitor_checks_package ON pkgscan_monitor_checks (package_id, checked_at DESC);
    `,
  },
  {
    version: 13,
    name: 'scan feature vectors for model drift',
    sql: `
      CREATE TABLE pkgscan_scan_features (
        scan_id TEXT PRIMARY KEY REFERENCES pkgscan_scans (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        features_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scan_features_time ON pkgscan_scan_features (created_at DESC);
    `,
  },
];
