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
