// The per-installation API token: 32 random bytes (base64url) in <dataDir>/token, readable by its owner only.
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { storageError, VitrineError } from '../engines/core/errors.js';
import { writeOutputFile } from '../engines/core/output-file.js';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const POSIX = process.platform !== 'win32';

export function tokenPath(dataDir: string): string {
  return path.join(dataDir, 'token');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Creates the data directory (0700) when missing. */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * The token of this installation: read from `<dataDir>/token` (tightened to 0600 if it was looser), or
 * created there. A file that does not hold a well-formed token is replaced.
 */
export function loadOrCreateToken(dataDir: string): string {
  ensureDataDir(dataDir);
  const file = tokenPath(dataDir);
  const existing = readToken(file);
  if (existing !== undefined) return existing;
  const token = newToken();
  try {
    // 'wx': if another process created it a moment ago, theirs wins and we read it.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      // Ours, and empty or cut short (a full disk): removed, so the next start makes a whole one.
      rmSync(file, { force: true });
      throw storageError(err) ?? new VitrineError('unavailable', 'the token file cannot be written', { cause: err });
    }
  }
  const raced = readToken(file);
  if (raced !== undefined) return raced;
  // A malformed file: replace it atomically rather than edit it in place (its mode, 0600 since readToken, is kept).
  writeOutputFile(file, `${token}\n`, (err) => new VitrineError('unavailable', 'the token file cannot be written', { cause: err }));
  return token;
}

/** The token in `file`, or undefined when there is none or it is malformed. */
function readToken(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) throw new VitrineError('unavailable', 'the token file is not a regular file');
  if (POSIX && (stat.mode & 0o077) !== 0) chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  return TOKEN_PATTERN.test(token) ? token : undefined;
}
