// The spellings in which SQLite's and PostgreSQL's DDL differ, for a table statement written once and run on either
// backend (the advisory tables, pkgscan's migrations).

/** The column types and clauses that differ between SQLite and PostgreSQL. */
export interface DdlDialect {
  /** A floating-point column. */
  readonly real: string;
  /** A 64-bit integer column. */
  readonly bigint: string;
  /** What follows a table's closing parenthesis when its primary key should be its storage (SQLite only). */
  readonly withoutRowid: string;
}

export const SQLITE_DDL: DdlDialect = { real: 'REAL', bigint: 'INTEGER', withoutRowid: ' WITHOUT ROWID' };
export const POSTGRES_DDL: DdlDialect = { real: 'DOUBLE PRECISION', bigint: 'BIGINT', withoutRowid: '' };
