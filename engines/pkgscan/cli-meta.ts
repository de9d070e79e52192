// What `pkgscan --help` and `--version` need, in a module that imports only the service's settings: the command line
// loads this (and ../core/cli.js) to answer them; the platform, the store, scans, servers and jobs load when a command
// needs them (await import in cli.ts).
import { PASSWORD_MIN, VERSION } from './config.js';
import { DATABASE_URL_ENV } from './db/url.js';

export const DEFAULT_PORT = 8010;

/** The storage commands (migrate, --database-url). */
export const STORAGE_HELP = `  pkgscan migrate [--status]
      Brings the store to the newest schema (PostgreSQL: every pending migration in one transaction under an advisory
      lock, so servers starting at once migrate once; SQLite migrates whenever it is opened). --status only lists the
      migrations, applied or pending, and changes nothing.
  --database-url postgres://USER@HOST/DB (or ${DATABASE_URL_ENV}) puts the users, refresh tokens, the failed-login
      lock-out, the audit chain and the monitoring leases of every command in that PostgreSQL database
      (docs/pkgscan-deployment.md); without it everything stays in $VITRINE_HOME/vitrine.db.`;

/** The advisory commands. */
export const ADVISORIES_HELP = `  pkgscan advisories import PATH... [--json]
      Imports advisory files into the workstation's store (the shared database with PKGSCAN_DATABASE_URL), each detected by content: OSV records, folders of them
      and per-ecosystem all.zip exports (GHSA and MAL- records included), CISA KEV JSON or CSV, EPSS CSV (plain or
      gzip), NVD CVE JSON 2.0. Re-importing is idempotent. Bad records are counted warnings; exit 1 if a file fails.
  pkgscan advisories status [--json]
      Per source (osv:<ecosystem>, kev, epss, nvd): records, last import, data date, age, staleness.
  pkgscan advisories lookup ECOSYSTEM NAME VERSION [--json]
      The advisories affecting a package version (OSV ecosystem names: npm, PyPI, Go, Debian:12, ...), with the
      status ok, partial or unavailable. Exit 4 when the answer is not complete (partial or unavailable).`;

export const HELP = `pkgscan ${VERSION}: package security scanning service (platform: identity, users, audit, events, policies)

Usage:
  pkgscan serve [--host H] [--port P] [--allow-remote]
      The API at /api/v1, its schema at /openapi.json, and outside production (PKGSCAN_ENV=production)
      interactive documentation at /docs/ and /redoc. Binds 127.0.0.1:${DEFAULT_PORT} by default.
      Data is kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory. Jobs (package and
      project analyses, uploads, images, advisory files) run in worker processes, as in the workstation; with the
      store in memory, advisory imports (which a worker writes to the store file) run in the serving process.
  pkgscan create-admin --email ADDRESS [--role ROLE]
      Creates a user (default role admin) in $VITRINE_HOME/vitrine.db. The password (at least ${PASSWORD_MIN}
      characters) is read from standard input, first line; there is no default password.
      Refuses to add a further admin when one exists unless --force is given.
  pkgscan verify-audit [--expect-head HASH] [--expect-count N]
      Recomputes the audit hash chain and checks its append-only triggers; prints ok or the first broken sequence
      number, and the head hash. Record the head and count elsewhere (a ticket, a signed note) and pass them back:
      a log whose newest entries were deleted behind dropped triggers then fails.
  pkgscan import FILE|DIR...
      Copies npm (.tgz) and PyPI (.whl, .tar.gz, .zip) release archives into the workstation's package store
      (content-addressed by SHA-256); a folder is read one level deep. Nothing is unpacked or run.
  pkgscan scan ECOSYSTEM NAME [VERSION] [--environment ENV] [--json]
      Scans a release (npm or pypi) from the configured sources (the package store, then PKGSCAN_NPM_MIRROR /
      PKGSCAN_PYPI_MIRROR) and decides under ENV's active policy (default prod). No VERSION: the newest known.
      Prints the decision, risk, findings and policy reasons (--json: the whole verdict). Exit 3 when blocked.
  pkgscan diff NAME FROM_VERSION TO_VERSION [--ecosystem npm|pypi] [--json]
      Analyses both releases and compares them: risk, capabilities, findings new and gone, files, install-time
      files, maintainers. Exit 3 when the newer release escalates (docs/pkgscan-diffs.md).
  pkgscan worker [--supervised] [--tick-ms MS]
      Runs the scheduled monitoring checks of watched packages until SIGTERM or SIGINT (docs/pkgscan-monitoring.md);
      the state is in the store ($VITRINE_HOME/vitrine.db, or the shared database with PKGSCAN_DATABASE_URL), so a
      restart loses nothing. The workstation starts it with --supervised: it then ends when its parent process does.
  pkgscan train-model DIR [--output FILE]
      Retrains the risk model from a labelled folder (a GROUND_TRUTH.json beside the archives, read as bytes only);
      default output pkgscan/model.json in $PKGSCAN_STORE_DIR (where every server of a team reads it), else in
      $VITRINE_HOME (docs/pkgscan-ml.md).
${ADVISORIES_HELP}
${STORAGE_HELP}
  pkgscan --version | --help

Environment: VITRINE_HOME (data), PKGSCAN_ENV (production hides /docs and /redoc), METRICS_TOKEN (bearer for /metrics),
PKGSCAN_NPM_MIRROR and PKGSCAN_PYPI_MIRROR (lab mirrors), PKGSCAN_INTERNAL_NAMESPACES (e.g. @acme/,acme-).
Exit codes: 0 success (a scan that allows or warns), 1 failure (or a broken audit chain), 2 invalid arguments or
input, 3 a scan whose decision is block or a diff that escalates, 4 an advisory lookup whose answer is partial or unavailable (unknown).`;
