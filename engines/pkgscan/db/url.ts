// The PostgreSQL URL of a team deployment: PKGSCAN_DATABASE_URL or --database-url, checked, never echoed with its password.
import { VitrineError } from '../../core/errors.js';
import { trimEndChars } from '../../core/linear-text.js';

export const DATABASE_URL_ENV = 'PKGSCAN_DATABASE_URL';

/**
 * The PostgreSQL URL to use, from the flag or else the environment; undefined for the SQLite default. Anything but a
 * postgres:// or postgresql:// URL is refused (the message never repeats the value: it may hold a password).
 */
export function databaseUrl(flag?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = flag ?? env[DATABASE_URL_ENV];
  if (value === undefined || value.trim() === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new VitrineError('validation_failed', `${DATABASE_URL_ENV} must be a postgres:// URL`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw new VitrineError('validation_failed', `${DATABASE_URL_ENV} must be a postgres:// URL`);
  return value.trim();
}

/** The URL without its password, for logs and status lines. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable)';
  }
}

export const STORE_DIR_ENV = 'PKGSCAN_STORE_DIR';

/**
 * The folder of pkgscan's files (package archives by digest, staged uploads, a retrained model) when it must be one
 * that every server reaches (a shared mount): PKGSCAN_STORE_DIR, an absolute path. Undefined: the data directory.
 */
export function storeDirFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[STORE_DIR_ENV];
  if (value === undefined || value.trim() === '') return undefined;
  if (!value.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(value)) throw new VitrineError('validation_failed', `${STORE_DIR_ENV} must be an absolute path`);
  return trimEndChars(value, '\\/') || '/';
}
