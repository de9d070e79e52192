// Commit events from git history: a manifest's first-parent history (renames followed), blame and pickaxe introducers, safe paths. git runs as a subprocess with arguments, never a shell string.
import { execFileSync } from 'node:child_process';
import { VitrineError } from '../core/errors.js';
import { ecosystemFor, parseManifest, parseManifestEntries, pinEntries } from '../core/manifests/index.js';
import type { StageEvent } from './envelope.js';
import type { CommitPayload, PinChange } from './events.js';

/** `safe_relpath`: a relative path with no `..`, `.`, `.git`, backslash, drive or empty component. */
export function safeRelpath(p: unknown): boolean {
  if (typeof p !== 'string' || p === '' || p.length > 4096) return false;
  if (p.includes('\\') || p.includes('\u0000') || p.startsWith('/') || /^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git' && !/^[A-Za-z]:$/.test(part));
}

const REV = /^[A-Za-z0-9._/@^~{}-]{1,256}$/;
/** Largest git output read (bytes): a manifest at one commit, or a log. */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

function checkArgs(manifest: string, rev: string): void {
  if (!safeRelpath(manifest)) throw new VitrineError('validation_failed', 'the manifest must be a safe relative path inside the repository');
  if (!REV.test(rev) || rev.startsWith('-')) throw new VitrineError('validation_failed', 'the revision is not a plain git revision');
}

/** Runs git in `repo` with fixed configuration; null when git reports failure (and `allowFailure`). */
function git(repo: string, args: readonly string[], allowFailure = false): string | null {
  try {
    return execFileSync('git', ['-c', 'core.quotepath=off', '-c', 'log.showSignature=false', '-c', 'diff.renames=true', '-C', repo, ...args], {
      encoding: 'utf8',
      maxBuffer: MAX_GIT_OUTPUT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0' },
    });
  } catch (err) {
    if (allowFailure) return null;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new VitrineError('unavailable', 'git is not installed', { cause: err });
    throw new VitrineError('bad_request', 'git could not read the repository or revision', { cause: err });
  }
}

/** One first-parent commit that changed the manifest's pins. */
export interface HistoryCommit {
  readonly sha: string;
  readonly author: string;
  readonly timestamp: string;
  readonly subject: string;
  /** The manifest's path at this commit (renames followed). */
  readonly path: string;
  readonly added: PinChange[];
  readonly removed: PinChange[];
}

export interface HistoryOptions {
  readonly rev?: string;
  /** Keep only the newest `limit` commits. */
  readonly limit?: number;
  /** Several versions of one name in a lock file are several pins (default true); false: the one-version view. */
  readonly multiVersion?: boolean;
}

interface Touch {
  sha: string;
  author: string;
  timestamp: string;
  subject: string;
  status: string;
  path: string;
}

/** Every first-parent commit that touched the file, newest first, with the file's path there (`--follow` tracks renames). */
function touches(repo: string, manifest: string, rev: string): Touch[] {
  const out = git(repo, ['log', '--first-parent', '--follow', '--name-status', '-z', '--format=%x01%H%x00%an <%ae>%x00%aI%x00%s%x00', rev, '--', manifest]) ?? '';
  const list: Touch[] = [];
  for (const record of out.split('\u0001').slice(1)) {
    const parts = record.split('\u0000');
    const [sha, author, timestamp, subject] = parts;
    // After the header: status, then one path (or two for a rename or copy), NUL separated.
    const rest = parts.slice(4).map((x) => x.replace(/^\n+/, '')).filter((x) => x !== '');
    const status = rest[0] ?? '';
    const path = /^[RC]/.test(status) ? (rest[2] ?? '') : (rest[1] ?? '');
    if (sha === undefined || !/^[0-9a-f]{40,64}$/.test(sha)) continue;
    list.push({ sha, author: author ?? '', timestamp: timestamp ?? '', subject: subject ?? '', status, path: path === '' ? manifest : path });
  }
  return list;
}

function pinSet(manifest: string, text: string, multiVersion: boolean): Map<string, PinChange> | null {
  const ecosystem = ecosystemFor(manifest);
  const set = new Map<string, PinChange>();
  try {
    if (multiVersion) {
      for (const e of parseManifestEntries(manifest, text)) set.set(`${e.name}\u0000${e.version}`, { name: e.name, version: e.version, ecosystem });
    } else {
      for (const [name, version] of parseManifest(manifest, text)) set.set(`${name}\u0000${version}`, { name, version, ecosystem });
    }
  } catch (err) {
    if (err instanceof VitrineError && err.code === 'parse_error') return null;
    throw err;
  }
  return set;
}

/** PURL type of a manifest's ecosystem (the purl types are the same words). */
function diff(before: Map<string, PinChange>, after: Map<string, PinChange>): { added: PinChange[]; removed: PinChange[] } {
  return { added: [...after].filter(([k]) => !before.has(k)).map(([, v]) => v), removed: [...before].filter(([k]) => !after.has(k)).map(([, v]) => v) };
}

/**
 * `manifest_history`: the oldest-first first-parent commits that added or removed at least one pin of the manifest,
 * renames followed. A version of the file that cannot be parsed keeps the pins it had (no spurious churn).
 */
/** Whether any first-parent commit up to `rev` touched `manifest` (renames followed): false for a path the repository never had. */
export function manifestTracked(repo: string, manifest: string, rev = 'HEAD'): boolean {
  checkArgs(manifest, rev);
  return touches(repo, manifest, rev).length > 0;
}

export function manifestHistory(repo: string, manifest: string, options: HistoryOptions = {}): HistoryCommit[] {
  const rev = options.rev ?? 'HEAD';
  checkArgs(manifest, rev);
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new VitrineError('validation_failed', 'limit must be a positive integer');
  const multi = options.multiVersion ?? true;
  const history: HistoryCommit[] = [];
  let pins = new Map<string, PinChange>();
  for (const t of touches(repo, manifest, rev).reverse()) {
    let next: Map<string, PinChange> | null;
    if (t.status.startsWith('D')) next = new Map();
    else {
      const text = safeRelpath(t.path) ? git(repo, ['show', `${t.sha}:${t.path}`], true) : null;
      next = text === null ? null : pinSet(t.path, text, multi);
    }
    if (next === null) continue;
    const { added, removed } = diff(pins, next);
    pins = next;
    if (added.length === 0 && removed.length === 0) continue;
    history.push({ sha: t.sha, author: t.author, timestamp: t.timestamp, subject: t.subject, path: t.path, added, removed });
  }
  return options.limit === undefined ? history : history.slice(-options.limit);
}

/** The pull-request number a commit subject names: `Merge pull request #12 from ...`, a trailing `(#12)`, or `pull request #12`. */
export function prFromSubject(subject: string): number | null {
  const m = /^Merge pull request #(\d{1,9})\b/.exec(subject) ?? /\(#(\d{1,9})\)\s*$/.exec(subject) ?? /\bpull request #(\d{1,9})\b/i.exec(subject) ?? /\(!(\d{1,9})\)\s*$/.exec(subject);
  return m?.[1] === undefined ? null : Number(m[1]);
}

/** `commit_events`: one unsigned commit stage event per history commit (seq is the position, oldest 0). */
export function commitEvents(history: readonly HistoryCommit[], manifest: string, runPrefix = 'git'): StageEvent[] {
  return history.map((c, seq) => {
    const payload: CommitPayload = {
      sha: c.sha,
      author: c.author,
      timestamp: c.timestamp,
      subject: c.subject,
      pr: prFromSubject(c.subject),
      added: c.added,
      removed: c.removed,
      manifest: c.path === '' ? manifest : c.path,
      seq,
    };
    return { stage: 'commit', runId: `${runPrefix}-${c.sha.slice(0, 12)}`, payload };
  });
}

export interface EntryIntroducer {
  readonly name: string;
  readonly version: string;
  /** 0-based line of the version. */
  readonly line: number;
  readonly sha: string;
}

/** The commit of each final line (1-based) of the file at `rev`, from `git blame --porcelain`. */
function blameLines(repo: string, manifest: string, rev: string): Map<number, string> {
  const out = git(repo, ['blame', '--porcelain', '--first-parent', rev, '--', manifest]) ?? '';
  const lines = new Map<number, string>();
  for (const l of out.split('\n')) {
    const m = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(l);
    if (m) lines.set(Number(m[2]), m[1] as string);
  }
  return lines;
}

/** `blame_entry_introducers`: for every pin (name, version) at `rev`, the commit that last wrote its version line. */
export function blameEntryIntroducers(repo: string, manifest: string, rev = 'HEAD'): EntryIntroducer[] {
  checkArgs(manifest, rev);
  const text = git(repo, ['show', `${rev}:${manifest}`]) ?? '';
  const entries = pinEntries(manifest, text);
  if (entries === null) return []; // no line map (npm lockfile v1): nothing to blame
  const lines = blameLines(repo, manifest, rev);
  return entries.flatMap((e) => {
    const sha = lines.get(e.line + 1);
    return sha === undefined ? [] : [{ name: e.name, version: e.version, line: e.line, sha }];
  });
}

/** `blame_introducers`: per package name, the commit that last wrote its (first, in file order) pin line. */
export function blameIntroducers(repo: string, manifest: string, rev = 'HEAD'): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of blameEntryIntroducers(repo, manifest, rev)) if (!out.has(e.name)) out.set(e.name, e.sha);
  return out;
}

/** `pickaxe_exact`: the newest first-parent commit that changed how often `token` occurs in the manifest (renames followed); null when none. */
export function pickaxeExact(repo: string, manifest: string, token: string, rev = 'HEAD'): string | null {
  checkArgs(manifest, rev);
  if (token === '' || token.length > 1024 || token.includes('\u0000')) throw new VitrineError('validation_failed', 'the token must be 1 to 1024 characters');
  const out = git(repo, ['log', '--first-parent', '--follow', '--format=%H', '-n', '1', `-S${token}`, rev, '--', manifest]) ?? '';
  return out.trim() === '' ? null : (out.trim().split('\n')[0] as string);
}

/** POSIX extended regular expression matching `text` literally. */
function ereLiteral(text: string): string {
  return text.replace(/[.[\]{}()*+?^$|\\]/g, '\\$&');
}

/** `pickaxe_first_mention`: the oldest first-parent commit whose diff of the manifest (renames followed) has a line mentioning `name`; null when none. */
export function pickaxeFirstMention(repo: string, manifest: string, name: string, rev = 'HEAD'): string | null {
  checkArgs(manifest, rev);
  if (name === '' || name.length > 512 || name.includes('\u0000') || name.includes('\n')) throw new VitrineError('validation_failed', 'the name must be 1 to 512 characters on one line');
  // Newest first and take the last: git's --follow does not track renames under --reverse.
  const out = git(repo, ['log', '--first-parent', '--follow', '--format=%H', `-G${ereLiteral(name)}`, rev, '--', manifest]) ?? '';
  return out.trim() === '' ? null : (out.trim().split('\n').at(-1) as string);
}
