// `?` placeholders to PostgreSQL's `$1..$n`, skipping quoted text and comments; a stable advisory-lock key for a name.
import { createHash } from 'node:crypto';

/** Numbers the `?` placeholders of `sql` as `$1, $2, ...` (not inside '...', "...", $tag$...$tag$ or -- comments). */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = (/^\$[A-Za-z_]*\$/.exec(sql.slice(i)) as RegExpExecArray)[0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end === -1 ? sql.length : end + tag.length;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      n++;
      out += `$${n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A signed 64-bit key for `pg_advisory_xact_lock`, the same in every process for the same name (as a decimal string). */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(`vitrine-pkgscan:${name}`).digest().readBigInt64BE(0).toString();
}

/**
 * The text at `path` inside a JSON text column, as SQL for the dialect: SQLite's json_extract, PostgreSQL's jsonb `#>>`.
 * `column` and `path` come from code, never from input (each key is checked to be a plain identifier).
 */
export function jsonTextAt(dialect: 'sqlite' | 'postgres', column: string, path: readonly string[]): string {
  for (const part of [column, ...path]) if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(part)) throw new Error('jsonTextAt takes identifiers only');
  return dialect === 'sqlite' ? `json_extract(${column}, '$.${path.join('.')}')` : `(${column}::jsonb #>> '{${path.join(',')}}')`;
}

/** Whether `err` is a unique-constraint violation on either backend (PostgreSQL 23505, SQLite's CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

function identifier(expr: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(expr)) throw new Error('takes a column name only');
  return expr;
}

/**
 * `column LIKE ? ESCAPE '\'` with SQLite's case rule on both backends: ASCII letters fold, nothing else does (SQLite's
 * LIKE; PostgreSQL's ILIKE would fold every script). Takes one parameter, the pattern.
 */
export function likeAsciiNoCase(dialect: 'sqlite' | 'postgres', column: string): string {
  const c = identifier(column);
  return dialect === 'sqlite' ? `${c} LIKE ? ESCAPE '\\'` : `translate(${c}, '${UPPER}', '${LOWER}') LIKE translate(?, '${UPPER}', '${LOWER}') ESCAPE '\\'`;
}

/** `column = ?` ignoring the case of ASCII letters only, as SQLite's COLLATE NOCASE. Takes one parameter. */
export function equalsAsciiNoCase(dialect: 'sqlite' | 'postgres', column: string): string {
  const c = identifier(column);
  return dialect === 'sqlite' ? `${c} = ? COLLATE NOCASE` : `translate(${c}, '${UPPER}', '${LOWER}') = translate(?, '${UPPER}', '${LOWER}')`;
}

/** A text column ordered by code point on both backends (SQLite's BINARY; PostgreSQL's "C", whatever the database's collation). */
export function byCodePoint(dialect: 'sqlite' | 'postgres', column: string): string {
  const c = identifier(column);
  return dialect === 'sqlite' ? c : `${c} COLLATE "C"`;
}
