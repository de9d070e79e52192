// Syslog auth logs (BSD and RFC 3339 headers): sshd, pam, sudo, su, useradd/usermod, cron and systemd-logind lines as events.
import { sha256Hex } from '../../core/canonical.js';
import { cutAtLastLineChar, lastLineTerminator } from '../../core/linear-text.js';
import { setOwn } from '../../core/own.js';
import type { EventEntity, JsonRecord, JsonValue } from '../event.js';
import { LOADER_RELIABILITY } from '../event.js';
import { linesOf } from '../text.js';
import { MONTHS, civilToEpochSeconds, formatEpochSeconds, parseIsoTime } from '../time.js';
import { clip, headLines, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

/** What scanBsdHeader reads (kept as the reference the tests compare it with). */
export const BSD_HEADER = /^(?:<\d{1,3}>)?([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? (\S+) (.*)$/;
/** The RFC 5424-style header with an ISO time: `<pri>1 time host rest`. */
export const ISO_HEADER = /^(?:<\d{1,3}>(?:1 )?)?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})) (\S+) (.*)$/;

/** A syslog line split into its header fields. */
export interface SyslogLine {
  readonly host: string;
  readonly program: string;
  readonly pid: number | null;
  readonly message: string;
  /** Month/day/time for a BSD header (year and zone unknown), or the full time of an RFC 3339 header. */
  readonly bsd: { readonly month: number; readonly day: number; readonly hour: number; readonly minute: number; readonly second: number; readonly fraction: string } | null;
  readonly iso: string | null;
}

/**
 * What parseSyslogLine leaves for syslogSummary: the line it read last, when that line's summary is the text after the
 * host as it stands (else null). One per reader of a file (`summaryMemo()`), handed to both.
 */
export interface SummaryMemo {
  line: SyslogLine | null;
  summary: string;
}

export const summaryMemo = (): SummaryMemo => ({ line: null, summary: '' });

/** The header fields of a syslog line; null when it is none. With `memo`, the summary text is kept for syslogSummary. */
export function parseSyslogLine(text: string, memo?: SummaryMemo): SyslogLine | null {
  if (memo !== undefined) memo.line = null;
  let host: string;
  let rest: string;
  let bsd: SyslogLine['bsd'] = null;
  let iso: string | null = null;
  const b = scanBsdHeader(text);
  if (b !== null) {
    const month = MONTHS[b.month];
    if (month === undefined) return null;
    bsd = { month, day: b.day, hour: b.hour, minute: b.minute, second: b.second, fraction: b.fraction };
    host = b.host;
    rest = b.rest;
  } else {
    const i = ISO_HEADER.exec(text);
    if (!i) return null;
    iso = i[1] as string;
    host = i[2] as string;
    rest = i[3] as string;
  }
  return splitProgram(rest, host, bsd, iso, memo);
}

/** What BSD_HEADER captures, read as numbers where parseSyslogLine reads them so. */
interface BsdHeader {
  readonly month: string;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly fraction: string;
  readonly host: string;
  readonly rest: string;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** What `.` does not match: the ECMAScript line terminators. */
const isLineTerminator = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

/** The regular expressions' \s (and String.prototype.trim's set): ECMAScript white space and line terminators. */
export function isRegExpSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Two digits at i as a number, or -1. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i);
  const b = text.charCodeAt(i + 1);
  return isDigit(a) && isDigit(b) ? (a - 48) * 10 + (b - 48) : -1;
}

/**
 * BSD_HEADER.exec read by hand (every line of a log goes through it): the same match, or null where it finds none.
 * The pattern has one way to match each line (each repeat is followed by a character it cannot take), so a scan from
 * left to right decides it; authlog.test.ts compares both on real and mutated lines.
 */
export function scanBsdHeader(text: string): BsdHeader | null {
  const n = text.length;
  let i = 0;
  if (text.charCodeAt(0) === 60) {
    // <\d{1,3}>
    let j = 1;
    while (j <= 3 && isDigit(text.charCodeAt(j))) j++;
    if (j === 1 || text.charCodeAt(j) !== 62) return null;
    i = j + 1;
  }
  const m0 = text.charCodeAt(i);
  const m1 = text.charCodeAt(i + 1);
  const m2 = text.charCodeAt(i + 2);
  if (!(m0 >= 65 && m0 <= 90 && m1 >= 97 && m1 <= 122 && m2 >= 97 && m2 <= 122)) return null;
  const month = text.slice(i, i + 3);
  i += 3;
  // ' {1,2}(\d{1,2}) '
  if (text.charCodeAt(i) !== 32) return null;
  i++;
  if (text.charCodeAt(i) === 32) i++;
  if (!isDigit(text.charCodeAt(i))) return null;
  let day = text.charCodeAt(i) - 48;
  i++;
  if (isDigit(text.charCodeAt(i))) {
    day = day * 10 + text.charCodeAt(i) - 48;
    i++;
  }
  if (text.charCodeAt(i) !== 32) return null;
  const hour = twoDigits(text, i + 1);
  const minute = twoDigits(text, i + 4);
  const second = twoDigits(text, i + 7);
  if (hour < 0 || minute < 0 || second < 0 || text.charCodeAt(i + 3) !== 58 || text.charCodeAt(i + 6) !== 58) return null;
  i += 9;
  // (?:\.(\d{1,6}))? then a space
  let fraction = '';
  if (text.charCodeAt(i) === 46) {
    let j = i + 1;
    while (isDigit(text.charCodeAt(j))) j++;
    if (j === i + 1 || j - i - 1 > 6) return null;
    fraction = text.slice(i + 1, j);
    i = j;
  }
  if (text.charCodeAt(i) !== 32) return null;
  i++;
  // (\S+) then a space, then (.*)$: the rest holds no line terminator
  let j = i;
  while (j < n && !isRegExpSpace(text.charCodeAt(j))) j++;
  if (j === i || text.charCodeAt(j) !== 32) return null;
  for (let k = j + 1; k < n; k++) if (isLineTerminator(text.charCodeAt(k))) return null;
  return { month, day, hour, minute, second, fraction, host: text.slice(i, j), rest: text.slice(j + 1) };
}

/**
 * `program[pid]: message` in the rest of a header (which holds no line terminator), as loghub splits it, read in one
 * pass: after the leading white space, the program is the shortest text followed by `[digits]:` or `:` and then the
 * end or a space. When there is none, the program is empty if `[digits]:` or `:` starts right after the leading white
 * space; otherwise there is no program and the whole rest is the message. This is what `/^\s*(.+?)(?:\[(\d+)\])?:(?:
 * (.*))?$/` captures (its backtracking into the leading white space gives the empty program), without its
 * backtracking over long lines; syslog-scan.test.ts compares the two.
 */
function splitProgram(rest: string, host: string, bsd: SyslogLine['bsd'], iso: string | null, memo: SummaryMemo | undefined): SyslogLine {
  const n = rest.length;
  let s = 0;
  while (s < n && isRegExpSpace(rest.charCodeAt(s))) s++;
  for (let e = s + 1; e < n; e++) {
    const line = programAt(rest, s, e, host, bsd, iso, memo);
    if (line !== null) return line;
  }
  return (s > 0 && s < n ? programAt(rest, s, s, host, bsd, iso, undefined) : null) ?? { host, program: '', pid: null, message: rest.trim(), bsd, iso };
}

/** The split when `[digits]:` or `:`, then the end or a space, starts at `e` (the program is `rest[s, e)`), else null. */
function programAt(rest: string, s: number, e: number, host: string, bsd: SyslogLine['bsd'], iso: string | null, memo: SummaryMemo | undefined): SyslogLine | null {
  const n = rest.length;
  const c = rest.charCodeAt(e);
  if (c === 91) {
    let k = e + 1;
    while (isDigit(rest.charCodeAt(k))) k++;
    if (k > e + 1 && rest.charCodeAt(k) === 93 && rest.charCodeAt(k + 1) === 58 && (k + 2 === n || rest.charCodeAt(k + 2) === 32)) {
      const line: SyslogLine = { host, program: rest.slice(s, e).trim(), pid: Number(rest.slice(e + 1, k)), message: k + 2 === n ? '' : rest.slice(k + 3).trim(), bsd, iso };
      // The rest is the summary as written when nothing was trimmed and the pid's digits are those String writes.
      const digits = k - e - 1;
      if (s === 0 && !isRegExpSpace(rest.charCodeAt(e - 1)) && digits <= 15 && (digits === 1 || rest.charCodeAt(e + 1) !== 48) && untrimmed(rest, k + 3)) remember(memo, line, rest);
      return line;
    }
  } else if (c === 58 && (e + 1 === n || rest.charCodeAt(e + 1) === 32)) {
    const line: SyslogLine = { host, program: rest.slice(s, e).trim(), pid: null, message: e + 1 === n ? '' : rest.slice(e + 2).trim(), bsd, iso };
    if (s === 0 && !isRegExpSpace(rest.charCodeAt(e - 1)) && untrimmed(rest, e + 2)) remember(memo, line, rest);
    return line;
  }
  return null;
}

/** True when `rest` from `from` on is a message that trim() leaves as it is and that is not empty. */
function untrimmed(rest: string, from: number): boolean {
  return from < rest.length && !isRegExpSpace(rest.charCodeAt(from)) && !isRegExpSpace(rest.charCodeAt(rest.length - 1));
}

function remember(memo: SummaryMemo | undefined, line: SyslogLine, rest: string): void {
  if (memo === undefined) return;
  memo.line = line;
  memo.summary = rest;
}

/**
 * `program[pid]: message` (or `program: message`): the event summary of a parsed line. For the line parseSyslogLine
 * read last into `memo`, when nothing was trimmed from it, that is the text after the host as it stands: the same text,
 * taken without building it again (syslog-scan.test.ts compares both).
 */
export function syslogSummary(p: SyslogLine, memo?: SummaryMemo): string {
  if (memo !== undefined && p === memo.line) return memo.summary;
  return `${p.program}${p.pid !== null ? `[${p.pid}]` : ''}: ${p.message}`;
}

/** What one auth-relevant message means. */
interface Meaning {
  readonly action: string;
  readonly actor: EventEntity | null;
  readonly object: EventEntity | null;
  readonly attributes: JsonRecord;
}

const user = (name: string): EventEntity => ({ type: 'user', name });
const net = (address: string): EventEntity => ({ type: 'network', name: address });
const proc = (name: string): EventEntity => ({ type: 'process', name });

/**
 * What classifyAuthMessage keeps between the lines of one file (`authMemo()`, made by the reader): service() of the
 * programs seen (a log names a few dozen), and the host entity made last (a log's lines name one host or a few, in runs).
 */
export interface AuthMemo {
  readonly services: Map<string, string>;
  lastHost: string;
  lastHostEntity: EventEntity;
}

export const authMemo = (): AuthMemo => ({ services: new Map(), lastHost: '', lastHostEntity: { type: 'host', name: '' } });

/** The program's base name without the pam module suffix: `sshd(pam_unix)` -> sshd. */
function service(program: string, memo: AuthMemo | undefined): string {
  const known = memo?.services.get(program);
  if (known !== undefined) return known;
  const svc = (program.endsWith(')') ? cutAtLastLineChar(program, '(') : program).replace(/^.*\//, '');
  if (memo !== undefined && memo.services.size < 4096) memo.services.set(program, svc);
  return svc;
}

/** `{ type: 'host', name }`, with a memo the same object while the name is the same (entities are never changed). */
function hostEntityOf(name: string, memo: AuthMemo | undefined): EventEntity {
  if (memo === undefined) return { type: 'host', name };
  if (name !== memo.lastHost) {
    memo.lastHost = name;
    memo.lastHostEntity = { type: 'host', name };
  }
  return memo.lastHostEntity;
}

/** Classifies an sshd, pam, sudo, su, account, cron or logind message; null for anything else. */
export function classifyAuthMessage(program: string, message: string, host: string, memo?: AuthMemo): Meaning | null {
  const svc = service(program, memo);
  const hostEntity = hostEntityOf(host, memo);
  let m: RegExpExecArray | null;
  // Each pattern below starts with (or, unanchored, holds) a literal text: a message without it is not run through it.
  const repeated = message.startsWith('message repeated ') ? /^message repeated (\d+) times: \[ ?(.*?) ?\]$/.exec(message) : null;
  const msg = repeated ? (repeated[2] as string) : message;
  const extra: JsonRecord = repeated ? { repeated: Number(repeated[1]) } : {};

  if (msg.startsWith('Accepted ') && (m = /^Accepted (\S+) for (\S+) from (\S+) port (\d+)/.exec(msg)))
    return { action: 'auth.login.success', actor: user(m[2] as string), object: hostEntity, attributes: { ...extra, service: svc, method: m[1] as string, sourceIp: m[3] as string, sourcePort: Number(m[4]) } };
  if (msg.startsWith('Failed ') && (m = /^Failed (\S+) for (invalid user )?(.*?) from (\S+) port (\d+)/.exec(msg)))
    return {
      action: 'auth.login.failure',
      actor: user(m[3] as string),
      object: hostEntity,
      attributes: { ...extra, service: svc, method: m[1] as string, invalidUser: m[2] !== undefined, sourceIp: m[4] as string, sourcePort: Number(m[5]) },
    };
  if (msg.startsWith('Invalid user ') && (m = /^Invalid user (.*?) from (\S+)(?: port (\d+))?$/.exec(msg)))
    return { action: 'auth.invalid_user', actor: user(m[1] as string), object: hostEntity, attributes: { ...extra, service: svc, sourceIp: m[2] as string, ...(m[3] ? { sourcePort: Number(m[3]) } : {}) } };
  // The gap after each `authentication failure;` stops at the next one (a later start reads on from there).
  if (msg.includes('authentication failure;') && (m = /authentication failure;(?:(?!authentication failure;).)*?rhost=(\S*)(?:\s+user=(\S+))?/.exec(msg)))
    return {
      action: 'auth.failure',
      actor: m[2] ? user(m[2]) : m[1] ? net(m[1]) : null,
      object: hostEntity,
      attributes: { ...extra, service: svc, ...(m[1] ? { sourceHost: m[1] } : {}), ...(m[2] ? { user: m[2] } : {}) },
    };
  if (msg.includes('session opened for user ') && (m = /session opened for user (\S+?)(?:\(uid=\d+\))? by (\S*?)\(uid=(\d+)\)/.exec(msg)))
    return { action: svc === 'su' ? 'su.session.open' : 'session.open', actor: m[2] ? user(m[2]) : { type: 'user', name: `uid:${m[3] as string}` }, object: user(m[1] as string), attributes: { ...extra, service: svc, byUid: Number(m[3]) } };
  if (msg.includes('session closed for user ') && (m = /session closed for user (\S+)/.exec(msg))) return { action: svc === 'su' ? 'su.session.close' : 'session.close', actor: user(m[1] as string), object: hostEntity, attributes: { ...extra, service: svc } };
  if (svc === 'sudo') {
    // `.`, `\S` and the literals stop at a line terminator and `$` is the end of the text: a message with one after its
    // leading blanks cannot match, and the lazy PWD would try each later `; USER=` up to it (quadratic), so it is not run.
    const lineBreak = lastLineTerminator(msg);
    if ((lineBreak < 0 || msg.slice(0, lineBreak + 1).trim() === '') && (m = /^\s*(\S+) : (?:(\d+) incorrect password attempts? ; )?(?:(user NOT in sudoers|command not allowed) ; )?TTY=(\S+) ; PWD=(.*?) ; USER=(\S+) ;(?: COMMAND=(.*))?$/.exec(msg))) {
      const failed = m[2] !== undefined;
      const denied = m[3] !== undefined;
      return {
        action: denied ? 'sudo.denied' : failed ? 'sudo.failure' : 'sudo.command',
        actor: user(m[1] as string),
        object: proc(m[7] ?? ''),
        attributes: { ...extra, runAs: m[6] as string, tty: m[4] as string, cwd: m[5] as string, ...(m[7] !== undefined ? { commandLine: m[7] } : {}), ...(failed ? { attempts: Number(m[2]) } : {}) },
      };
    }
  }
  if (svc === 'su') {
    if ((m = /^(Successful|FAILED) su for (\S+) by (\S+)/.exec(msg)))
      return { action: m[1] === 'FAILED' ? 'su.failure' : 'su.success', actor: user(m[3] as string), object: user(m[2] as string), attributes: { ...extra } };
    // `+ tty from:to`; the first part is what runs to the first colon after its first character (read once).
    if ((m = /^([+-]) (\S+) (\S[^\s:]*):(\S+)$/.exec(msg)))
      return { action: m[1] === '-' ? 'su.failure' : 'su.success', actor: user(m[3] as string), object: user(m[4] as string), attributes: { ...extra, tty: m[2] as string } };
  }
  if (svc === 'useradd' || svc === 'adduser') {
    if ((m = /^new user: name=([^,]+), UID=(\d+), GID=(\d+), home=([^,]*), shell=([^,\s]*)/.exec(msg)))
      return { action: 'account.create', actor: null, object: user(m[1] as string), attributes: { ...extra, uid: Number(m[2]), gid: Number(m[3]), home: m[4] as string, shell: m[5] as string } };
    if ((m = /^new group: name=([^,]+), GID=(\d+)/.exec(msg))) return { action: 'group.create', actor: null, object: { type: 'group', name: m[1] as string }, attributes: { ...extra, gid: Number(m[2]) } };
  }
  if (svc === 'groupadd' && (m = /^(?:new )?group(?: added to \S+)?: name=([^,]+)(?:, GID=(\d+))?/.exec(msg)))
    return { action: 'group.create', actor: null, object: { type: 'group', name: m[1] as string }, attributes: { ...extra, ...(m[2] ? { gid: Number(m[2]) } : {}) } };
  if (svc === 'usermod' || svc === 'useradd' || svc === 'gpasswd') {
    if ((m = /^add '([^']+)' to (?:shadow )?group '([^']+)'/.exec(msg)))
      return { action: 'account.group.add', actor: null, object: user(m[1] as string), attributes: { ...extra, group: m[2] as string } };
    if ((m = /^change user '([^']+)' (\S+)/.exec(msg))) return { action: 'account.modify', actor: null, object: user(m[1] as string), attributes: { ...extra, change: m[2] as string } };
    if ((m = /^(lock|unlock) user '([^']+)'/.exec(msg))) return { action: `account.${m[1] as string}`, actor: null, object: user(m[2] as string), attributes: { ...extra } };
  }
  if (svc === 'userdel' && (m = /^delete user '([^']+)'/.exec(msg))) return { action: 'account.delete', actor: null, object: user(m[1] as string), attributes: { ...extra } };
  if (msg.includes('password changed for ') && (m = /password changed for (\S+)/.exec(msg))) return { action: 'account.password_change', actor: null, object: user(m[1] as string), attributes: { ...extra, service: svc } };
  if (/^cron$/i.test(svc) && (m = /^\((\S+)\) CMD \((.*)\)$/.exec(msg)))
    return { action: 'cron.command', actor: user(m[1] as string), object: proc(m[2] as string), attributes: { ...extra, commandLine: m[2] as string } };
  if (svc === 'systemd-logind') {
    if ((m = /^New session (\S+) of user (\S+?)\.?$/.exec(msg))) return { action: 'logind.session.new', actor: user(m[2] as string), object: hostEntity, attributes: { ...extra, session: m[1] as string } };
    if ((m = /^Removed session (\S+?)\.?$/.exec(msg))) return { action: 'logind.session.removed', actor: null, object: hostEntity, attributes: { ...extra, session: m[1] as string } };
    if ((m = /^Session (\S+) logged out/.exec(msg))) return { action: 'logind.session.logout', actor: null, object: hostEntity, attributes: { ...extra, session: m[1] as string } };
  }
  if (svc === 'sshd') {
    if ((m = /^(?:Received disconnect|Disconnected) from (?:(?:invalid |authenticating )?user (\S+) )?(\S+?)(?::? port (\d+))?[: ]/.exec(`${msg} `)))
      return { action: 'ssh.disconnect', actor: m[1] ? user(m[1]) : net(m[2] as string), object: hostEntity, attributes: { ...extra, sourceIp: m[2] as string } };
    if ((m = /^Connection closed by (?:(?:invalid |authenticating )?user (\S+) )?(\S+)/.exec(msg)))
      return { action: 'ssh.disconnect', actor: m[1] ? user(m[1]) : net(m[2] as string), object: hostEntity, attributes: { ...extra, sourceIp: m[2] as string } };
    if ((m = /^reverse mapping checking getaddrinfo for (\S+) \[(\S+)\] failed/.exec(msg)))
      return { action: 'ssh.reverse_mapping_failed', actor: net(m[2] as string), object: hostEntity, attributes: { ...extra, claimedName: m[1] as string } };
  }
  if (msg.startsWith('connection from ') && (m = /^connection from (\S+) \(([^)]*)\)/.exec(msg)))
    return { action: 'network.connection.inbound', actor: net(m[1] as string), object: { type: 'service', name: svc }, attributes: { ...extra, service: svc, ...(m[2] ? { sourceName: m[2] } : {}) } };
  return null;
}

/**
 * `{ program, pid?, message, ...meaning.attributes }`, made by adding keys to one object: the same keys in the same
 * order, without the spread of two objects into a literal, which gives V8 a slow dictionary object (about 380 bytes
 * instead of about 100) that the event keeps.
 */
function lineAttributes(parsed: SyslogLine, meaning: Meaning | null): JsonRecord {
  // An empty literal has room for four properties inside the object; a literal with one key has room for one.
  const out: Record<string, JsonValue> = {};
  out['program'] = parsed.program;
  if (parsed.pid !== null) out['pid'] = parsed.pid;
  out['message'] = clip(parsed.message);
  if (meaning === null) return out;
  const extra = meaning.attributes;
  for (const k in extra) {
    if (!Object.prototype.hasOwnProperty.call(extra, k)) continue;
    // A key named __proto__ would set the prototype by assignment (the spread defined it); none is made here, but be exact.
    setOwn(out, k, extra[k] as JsonValue);
  }
  return out;
}

interface YearState {
  year: number;
  lastMonth: number;
}

const kind = 'authlog' as const;

export const authlogLoader: Loader = {
  kind,
  id: 'authlog/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    if (sample.type !== 'file') return 0;
    const lines = headLines(sample.head, 20, sample.head.length >= sample.size);
    if (lines.length === 0) return 0;
    let syslog = 0;
    for (const l of lines) if (parseSyslogLine(l) !== null) syslog++;
    return syslog / lines.length >= 0.8 ? 0.6 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    const { options } = ctx;
    const offsetHours = options.utcOffsetHours ?? 0;
    const yearGiven = options.year !== undefined;
    const state: YearState = { year: options.year ?? new Date(source.mtimeMs).getUTCFullYear(), lastMonth: 0 };
    let warnedYear = false;
    let warnedZone = false;
    const zoneText = `UTC${offsetHours >= 0 ? '+' : ''}${offsetHours}`;
    let sourceYear = Number.NaN;
    let bsdSource = '';
    const file = source.file;
    const memo = summaryMemo();
    const auth = authMemo();
    for (const line of linesOf(file.chunks(), { onTooLong: (n, offset) => ctx.warn('line_too_long', 'a line longer than the limit was skipped', { line: n, offset }) })) {
      if (line.number % 4096 === 0) {
        ctx.checkCancelled();
        ctx.progress(file.size === 0 ? 1 : line.offset / file.size);
      }
      if (line.text.trim() === '') continue;
      if (line.invalidUtf8) ctx.warn('invalid_utf8', 'a line is not valid UTF-8; invalid bytes were replaced', { line: line.number, offset: line.offset });
      const parsed = parseSyslogLine(line.text, memo);
      if (parsed === null) {
        ctx.warn('unparsed_line', line.terminator === 0 ? 'the last line is cut short or not a syslog line' : 'a line is not a syslog line', { line: line.number, offset: line.offset });
        continue;
      }
      let time: string | null = null;
      let precision: 'second' | 'millisecond' | 'microsecond' | 'nanosecond' | '100ns' = 'second';
      let timeSource: string;
      if (parsed.bsd !== null) {
        const b = parsed.bsd;
        // Syslog lines carry no year: a month earlier than the last one means the log crossed New Year.
        if (state.lastMonth !== 0 && b.month < state.lastMonth) state.year++;
        state.lastMonth = b.month;
        const local = civilToEpochSeconds(state.year, b.month, b.day, b.hour, b.minute, b.second);
        if (local !== null) {
          time = formatEpochSeconds(Math.round(local - offsetHours * 3600), b.fraction);
          precision = b.fraction === '' ? 'second' : b.fraction.length <= 3 ? 'millisecond' : 'microsecond';
        } else ctx.warn('bad_time', 'a syslog header holds an impossible date', { line: line.number, offset: line.offset });
        // One text per year (it changes only when the log crosses New Year), not one per line.
        if (state.year !== sourceYear) {
          sourceYear = state.year;
          bsdSource = `syslog header; year ${state.year} ${yearGiven ? 'from the year option' : 'assumed from the file time'}; ${zoneText} ${options.utcOffsetHours !== undefined ? 'from the utc_offset_hours option' : 'assumed'}`;
        }
        timeSource = bsdSource;
        if (!yearGiven && !warnedYear) {
          warnedYear = true;
          ctx.warn('year_assumed', 'syslog lines carry no year; the file modification year was assumed (give the year option)');
        }
        if (options.utcOffsetHours === undefined && !warnedZone) {
          warnedZone = true;
          ctx.warn('zone_assumed', 'syslog lines carry no time zone; UTC was assumed (give the utc_offset_hours option)');
        }
      } else {
        const t = parseIsoTime(parsed.iso ?? '');
        if (t !== null) {
          time = t.time;
          precision = t.precision === 'minute' || t.precision === 'day' || t.precision === 'none' ? 'second' : t.precision;
        } else ctx.warn('bad_time', 'a syslog header holds an impossible date', { line: line.number, offset: line.offset });
        timeSource = 'syslog RFC 3339 header';
      }
      const host = parsed.host !== '' ? parsed.host : (options.host ?? null);
      const meaning = classifyAuthMessage(parsed.program, parsed.message, host ?? 'unknown', auth);
      yield ctx.event({
        actor: meaning ? meaning.actor : parsed.program !== '' ? proc(parsed.program) : null,
        action: meaning ? meaning.action : 'syslog.message',
        object: meaning ? meaning.object : host !== null ? hostEntityOf(host, auth) : null,
        time: { time, precision: time === null ? 'none' : precision, source: timeSource },
        host,
        summary: clip(syslogSummary(parsed, memo), 512),
        attributes: lineAttributes(parsed, meaning),
        record: { recordNumber: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) },
      });
    }
    ctx.progress(1);
  },
};
