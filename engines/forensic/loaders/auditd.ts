// Raw Linux audit.log: records grouped into events by their audit(time:serial) stamp, hex-encoded values and EXECVE arguments decoded.
import { createHash } from 'node:crypto';
import { ownEntry, setOwn } from '../../core/own.js';
import type { EventEntity, JsonRecord, JsonValue } from '../event.js';
import { LOADER_RELIABILITY } from '../event.js';
import { linesOf } from '../text.js';
import { fromEpochSecondsText } from '../time.js';
import { clip, headLines, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

const RECORD = /^(?:node=(\S+) )?type=([A-Za-z0-9_[\]]+) msg=audit\((\d{1,12}\.\d{1,9}):(\d{1,20})\):\s?(.*)$/;
/** auditd's enriched format appends interpreted fields after a 0x1D separator. */
const ENRICHED_SEPARATOR = '\x1d';
/** Events still waiting for more records after this many lines without one are written out. */
const OPEN_EVENT_WINDOW = 2000;
/**
 * Records one event holds at most (a real one has a few, an EXECVE of many files some hundreds): past it the event is
 * closed and the stamp's later records start another, so a log repeating one stamp cannot grow one event without bound.
 */
export const MAX_EVENT_RECORDS = 1000;

/** One audit record: its type and its fields (raw values, quotes removed), plus the enriched fields. */
export interface AuditRecord {
  readonly type: string;
  readonly fields: Record<string, string>;
  /** Which raw values were unquoted (so may be hex-encoded). */
  readonly unquoted: Set<string>;
  readonly enriched: Record<string, string>;
  /** The inner `msg='...'` fields of user-space records. */
  readonly inner: Record<string, string> | null;
}

/** Splits `key=value key="quoted value" msg='inner fields'` into fields, remembering which values were unquoted. */
export function parseAuditFields(text: string): { fields: Record<string, string>; unquoted: Set<string> } {
  const fields: Record<string, string> = {};
  const unquoted = new Set<string>();
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === ' ') i++;
    const eq = text.indexOf('=', i);
    if (eq === -1) break;
    const key = text.slice(i, eq);
    if (!/^[A-Za-z0-9_\-[\]]{1,64}$/.test(key)) {
      // Not a field: skip to the next space and try again.
      const sp = text.indexOf(' ', i);
      if (sp === -1) break;
      i = sp + 1;
      continue;
    }
    let j = eq + 1;
    let value: string;
    const q = text[j];
    if (q === '"' || q === "'") {
      const close = text.indexOf(q, j + 1);
      const end = close === -1 ? n : close;
      value = text.slice(j + 1, end);
      j = close === -1 ? n : close + 1;
    } else {
      const sp = text.indexOf(' ', j);
      const end = sp === -1 ? n : sp;
      value = text.slice(j, end);
      j = end;
      unquoted.add(key);
    }
    if (!Object.hasOwn(fields, key)) setOwn(fields, key, value);
    i = j;
  }
  return { fields, unquoted };
}

export function parseAuditRecord(type: string, body: string): AuditRecord {
  const sep = body.indexOf(ENRICHED_SEPARATOR);
  const main = sep === -1 ? body : body.slice(0, sep);
  const { fields, unquoted } = parseAuditFields(main);
  const enriched = sep === -1 ? {} : parseAuditFields(body.slice(sep + 1)).fields;
  const msg = fields['msg'];
  const inner = msg !== undefined && !unquoted.has('msg') ? parseAuditFields(msg).fields : null;
  return { type, fields, unquoted, enriched, inner };
}

const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

/** auditd writes a string unquoted and hex-encoded when it holds spaces, quotes or control characters. */
function decodeHexText(hex: string): string {
  return Buffer.from(hex, 'hex').toString('utf8');
}

/** A string field's value: quoted values as they are, unquoted hex decoded, `(null)` as null. */
function textField(record: AuditRecord, key: string): string | null {
  const v = record.fields[key];
  if (v === undefined || v === '(null)' || v === '?') return null;
  if (record.unquoted.has(key) && HEX.test(v)) return decodeHexText(v);
  return v;
}

function numberField(record: AuditRecord | undefined, key: string): number | null {
  const v = record?.fields[key];
  if (v === undefined || !/^-?\d{1,15}$/.test(v)) return null;
  return Number(v);
}

/**
 * The argument vector of an event's EXECVE records: `aN="text"`, `aN=hex`, or a long argument split as
 * `aN_len=L aN[0]=hex aN[1]=hex ...`, possibly across several EXECVE records.
 */
export function execveArgv(records: readonly AuditRecord[]): { argv: string[]; complete: boolean } {
  const values = new Map<number, string>();
  const pieces = new Map<number, Map<number, string>>();
  let argc: number | null = null;
  for (const r of records) {
    if (r.type !== 'EXECVE') continue;
    for (const [key, value] of Object.entries(r.fields)) {
      if (key === 'argc' && /^\d+$/.test(value)) argc = Number(value);
      let m = /^a(\d+)$/.exec(key);
      if (m) {
        const index = Number(m[1]);
        values.set(index, r.unquoted.has(key) && HEX.test(value) ? decodeHexText(value) : value);
        continue;
      }
      m = /^a(\d+)\[(\d+)\]$/.exec(key);
      if (m) {
        const index = Number(m[1]);
        let parts = pieces.get(index);
        if (!parts) pieces.set(index, (parts = new Map()));
        parts.set(Number(m[2]), value);
      }
    }
  }
  for (const [index, parts] of pieces) {
    const order = [...parts.keys()].sort((a, b) => a - b);
    values.set(index, decodeHexText(order.map((k) => parts.get(k) ?? '').join('')));
  }
  // The highest index by a loop: spreading the keys into Math.max overflows the stack past about 100,000 arguments.
  let highest = -1;
  for (const index of values.keys()) if (index > highest) highest = index;
  const count = argc ?? highest + 1;
  const argv: string[] = [];
  let complete = true;
  for (let i = 0; i < count && i < 100_000; i++) {
    const v = values.get(i);
    if (v === undefined) complete = false;
    argv.push(v ?? '');
  }
  return { argv, complete };
}

/** PROCTITLE: the command line, hex-encoded with NUL separators (the kernel cuts it at 128 bytes). */
export function proctitleArgv(record: AuditRecord): string[] {
  const v = record.fields['proctitle'];
  if (v === undefined) return [];
  if (record.unquoted.has('proctitle') && HEX.test(v)) return Buffer.from(v, 'hex').toString('utf8').split('\0').filter((s, i, a) => !(s === '' && i === a.length - 1));
  return [v];
}

/**
 * A SOCKADDR's saddr (hex of struct sockaddr) as family, address and port for AF_UNIX, AF_INET and AF_INET6.
 * The family is in the machine's byte order (big-endian on ppc64, s390x), the port in network order.
 */
export function decodeSockaddr(hex: string, bigEndian = false): { family: string; address?: string; port?: number; path?: string } | null {
  if (!HEX.test(hex) || hex.length < 4) return null;
  const b = Buffer.from(hex, 'hex');
  const family = bigEndian ? b.readUInt16BE(0) : b.readUInt16LE(0);
  if (family === 1) return { family: 'unix', path: b.subarray(2).toString('utf8').replace(/\0.*$/s, '') };
  if (family === 2 && b.length >= 8) return { family: 'inet', port: b.readUInt16BE(2), address: `${b[4]}.${b[5]}.${b[6]}.${b[7]}` };
  if (family === 10 && b.length >= 24) {
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push(b.readUInt16BE(8 + i * 2).toString(16));
    return { family: 'inet6', port: b.readUInt16BE(2), address: compressIpv6(groups) };
  }
  if (family === 16) return { family: 'netlink' };
  return { family: `af_${family}` };
}

/** RFC 5952 text of eight hex groups: the longest run of two or more zero groups becomes `::`. */
function compressIpv6(groups: readonly string[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best === -1) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

const SYSCALLS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  // x86_64
  c000003e: { 0: 'read', 1: 'write', 2: 'open', 4: 'stat', 41: 'socket', 42: 'connect', 43: 'accept', 44: 'sendto', 49: 'bind', 50: 'listen', 56: 'clone', 57: 'fork', 58: 'vfork', 59: 'execve', 62: 'kill', 82: 'rename', 83: 'mkdir', 84: 'rmdir', 85: 'creat', 86: 'link', 87: 'unlink', 88: 'symlink', 90: 'chmod', 92: 'chown', 101: 'ptrace', 105: 'setuid', 159: 'adjtimex', 165: 'mount', 175: 'init_module', 257: 'openat', 263: 'unlinkat', 264: 'renameat', 268: 'fchmodat', 288: 'accept4', 313: 'finit_module', 316: 'renameat2', 322: 'execveat' },
  // aarch64
  c00000b7: { 35: 'unlinkat', 38: 'renameat', 56: 'openat', 63: 'read', 64: 'write', 117: 'ptrace', 198: 'socket', 200: 'bind', 202: 'accept', 203: 'connect', 220: 'clone', 221: 'execve', 281: 'execveat' },
  // i386
  '40000003': { 3: 'read', 4: 'write', 5: 'open', 10: 'unlink', 11: 'execve', 26: 'ptrace', 38: 'rename', 102: 'socketcall' },
  // ppc64 (big-endian)
  '80000015': { 3: 'read', 4: 'write', 5: 'open', 11: 'execve', 26: 'ptrace', 326: 'socket', 327: 'bind', 328: 'connect', 330: 'accept' },
};

const ARCHES: Readonly<Record<string, string>> = { c000003e: 'x86_64', c00000b7: 'aarch64', '40000003': 'i386', '40000028': 'arm', '80000015': 'ppc64' };
/** AUDIT_ARCH_* values carry this bit for little-endian machines. */
const ARCH_LITTLE_ENDIAN = 0x40000000;

/** Record types that only add detail to an event's main record. */
const AUXILIARY = new Set(['SYSCALL', 'EXECVE', 'CWD', 'PATH', 'PROCTITLE', 'SOCKADDR', 'EOE', 'OBJ_PID', 'BPRM_FCAPS', 'MMAP', 'FD_PAIR', 'CAPSET', 'SECCOMP', 'KERN_MODULE']);

const USER_SPACE_ACTIONS: Readonly<Record<string, string>> = {
  USER_LOGIN: 'auth.login',
  USER_AUTH: 'auth',
  USER_ACCT: 'auth.account',
  USER_START: 'session.open',
  USER_END: 'session.close',
  CRED_ACQ: 'auth.credentials.acquire',
  CRED_DISP: 'auth.credentials.dispose',
  CRED_REFR: 'auth.credentials.refresh',
  USER_CMD: 'sudo.command',
  USER_LOGOUT: 'auth.logout',
  LOGIN: 'session.login',
  SERVICE_START: 'service.start',
  SERVICE_STOP: 'service.stop',
  ADD_USER: 'account.create',
  DEL_USER: 'account.delete',
  ADD_GROUP: 'group.create',
  DEL_GROUP: 'group.delete',
  USER_MGMT: 'account.modify',
  GRP_MGMT: 'group.modify',
  USER_CHAUTHTOK: 'account.password_change',
  ANOM_PROMISCUOUS: 'network.promiscuous',
  ANOM_ABEND: 'process.crash',
  AVC: 'mac.decision',
  USER_AVC: 'mac.decision',
  TIME_ADJNTPVAL: 'time.adjust',
  TIME_INJOFFSET: 'time.adjust',
  CONFIG_CHANGE: 'audit.config_change',
  DAEMON_START: 'audit.daemon_start',
  DAEMON_END: 'audit.daemon_end',
  SYSTEM_BOOT: 'system.boot',
  SYSTEM_SHUTDOWN: 'system.shutdown',
  USER_ERR: 'auth.error',
  URINGOP: 'audit.uring_op',
};

const SYSCALL_ACTIONS: Readonly<Record<string, string>> = {
  execve: 'process.exec',
  execveat: 'process.exec',
  connect: 'network.connect',
  bind: 'network.bind',
  accept: 'network.accept',
  accept4: 'network.accept',
  listen: 'network.listen',
  open: 'file.open',
  openat: 'file.open',
  creat: 'file.create',
  unlink: 'file.delete',
  unlinkat: 'file.delete',
  rename: 'file.rename',
  renameat: 'file.rename',
  renameat2: 'file.rename',
  chmod: 'file.chmod',
  fchmodat: 'file.chmod',
  chown: 'file.chown',
  mkdir: 'file.mkdir',
  ptrace: 'process.ptrace',
  kill: 'process.signal',
  init_module: 'kernel.module_load',
  finit_module: 'kernel.module_load',
  mount: 'file.mount',
  setuid: 'process.setuid',
};

interface OpenEvent {
  readonly key: string;
  readonly node: string | null;
  readonly stamp: string;
  readonly serial: string;
  readonly records: AuditRecord[];
  readonly lines: number[];
  readonly offsets: { offset: number; length: number }[];
  readonly hash: ReturnType<typeof createHash>;
  lastLine: number;
}

function userName(record: AuditRecord | undefined, key: string): string | null {
  if (!record) return null;
  const enriched = record.enriched[key.toUpperCase()];
  if (enriched !== undefined && enriched !== 'unset') return enriched;
  const n = numberField(record, key);
  if (n === null || n === 4294967295) return null;
  return `uid:${n}`;
}

/** Turns one grouped audit event into draft fields. */
function describe(open: OpenEvent, host: string | null): { actor: EventEntity | null; action: string; object: EventEntity | null; summary: string; attributes: JsonRecord } {
  const recs = open.records;
  const syscall = recs.find((r) => r.type === 'SYSCALL');
  const main = recs.find((r) => !AUXILIARY.has(r.type)) ?? syscall ?? (recs[0] as AuditRecord);
  const attributes: Record<string, JsonValue> = { serial: Number(open.serial), records: recs.map((r) => r.type) };
  let actor: EventEntity | null = null;
  let object: EventEntity | null = null;
  let action: string;
  let summary: string;
  const exe = syscall ? textField(syscall, 'exe') : null;
  const comm = syscall ? textField(syscall, 'comm') : null;
  if (syscall) {
    const arch = (syscall.fields['arch'] ?? '').toLowerCase();
    const number = numberField(syscall, 'syscall');
    const archName = ownEntry(ARCHES, arch);
    const name = syscall.enriched['SYSCALL'] ?? (number !== null ? ownEntry(SYSCALLS, arch)?.[number] : undefined) ?? (number !== null ? `syscall_${number}` : 'unknown');
    Object.assign(attributes, {
      syscall: name,
      ...(archName !== undefined ? { arch: archName } : {}),
      success: (syscall.fields['success'] ?? '') === 'yes',
      ...(numberField(syscall, 'exit') !== null ? { exit: numberField(syscall, 'exit') } : {}),
      ...(numberField(syscall, 'pid') !== null ? { pid: numberField(syscall, 'pid') } : {}),
      ...(numberField(syscall, 'ppid') !== null ? { ppid: numberField(syscall, 'ppid') } : {}),
      ...(numberField(syscall, 'uid') !== null ? { uid: numberField(syscall, 'uid') } : {}),
      ...(numberField(syscall, 'auid') !== null ? { auid: numberField(syscall, 'auid') } : {}),
      ...(numberField(syscall, 'euid') !== null ? { euid: numberField(syscall, 'euid') } : {}),
      ...(comm !== null ? { comm } : {}),
      ...(exe !== null ? { exe } : {}),
      ...(syscall.fields['tty'] !== undefined ? { tty: syscall.fields['tty'] } : {}),
      ...(numberField(syscall, 'ses') !== null ? { ses: numberField(syscall, 'ses') } : {}),
      ...(textField(syscall, 'key') !== null ? { key: textField(syscall, 'key') } : {}),
    });
    const who = userName(syscall, 'auid') ?? userName(syscall, 'uid');
    if (who !== null) attributes['user'] = who;
    action = ownEntry(SYSCALL_ACTIONS, name) ?? `audit.syscall.${name}`;
    actor = exe !== null ? { type: 'process', name: exe } : comm !== null ? { type: 'process', name: comm } : null;
    summary = `${name}${comm !== null ? ` by ${comm}` : ''}${syscall.fields['pid'] !== undefined ? ` (pid ${syscall.fields['pid']})` : ''}`;
  } else {
    action = 'audit.record';
    summary = main.type;
  }
  const execve = execveArgv(recs);
  if (recs.some((r) => r.type === 'EXECVE')) {
    attributes['argv'] = execve.argv.map((a) => clip(a, 65536));
    if (!execve.complete) attributes['argvIncomplete'] = true;
  }
  const cwd = recs.find((r) => r.type === 'CWD');
  if (cwd) {
    const c = textField(cwd, 'cwd');
    if (c !== null) attributes['cwd'] = c;
  }
  const paths = recs
    .filter((r) => r.type === 'PATH')
    .map((r) => {
      const name = textField(r, 'name');
      return { ...(name !== null ? { name } : {}), ...(r.fields['nametype'] ? { nametype: r.fields['nametype'] } : {}), ...(numberField(r, 'item') !== null ? { item: numberField(r, 'item') } : {}) } as JsonRecord;
    });
  if (paths.length > 0) attributes['paths'] = paths;
  const title = recs.find((r) => r.type === 'PROCTITLE');
  if (title) attributes['proctitle'] = proctitleArgv(title).map((a) => clip(a, 4096));
  const sock = recs.find((r) => r.type === 'SOCKADDR');
  const archValue = Number.parseInt(syscall?.fields['arch'] ?? 'c000003e', 16);
  const bigEndian = Number.isFinite(archValue) && (archValue & ARCH_LITTLE_ENDIAN) === 0;
  const addr = sock?.fields['saddr'] !== undefined ? decodeSockaddr(sock.fields['saddr'], bigEndian) : null;
  if (addr) attributes['sockaddr'] = addr;
  const target = recs.find((r) => r.type === 'OBJ_PID');
  if (target) attributes['target'] = { ...(numberField(target, 'opid') !== null ? { pid: numberField(target, 'opid') } : {}), ...(textField(target, 'ocomm') !== null ? { comm: textField(target, 'ocomm') } : {}) };

  if (action === 'process.exec') {
    object = { type: 'process', name: exe ?? execve.argv[0] ?? comm ?? 'unknown' };
    const who = attributes['user'];
    actor = typeof who === 'string' ? { type: 'user', name: who } : actor;
    summary = `exec ${clip(execve.argv.join(' ') || (exe ?? ''), 400)}`;
  } else if (action.startsWith('network.') && addr) {
    const address = addr.family === 'inet6' ? `[${addr.address ?? ''}]` : addr.address;
    object = { type: 'network', name: address !== undefined ? `${address}:${addr.port ?? 0}` : (addr.path ?? addr.family) };
    summary = `${attributes['syscall'] as string} ${object.name}${comm !== null ? ` by ${comm}` : ''}`;
  } else if (action.startsWith('file.')) {
    const p = paths.find((x) => x['nametype'] !== 'PARENT') ?? paths[0];
    const name = p?.['name'];
    if (typeof name === 'string') object = { type: 'file', name };
  } else if (action === 'process.ptrace' && target) {
    object = { type: 'process', name: textField(target, 'ocomm') ?? `pid:${target.fields['opid'] ?? '?'}` };
  }

  if (main !== syscall) {
    // A user-space or kernel record leads the event; the SYSCALL (if any) says which process wrote it.
    const base = ownEntry(USER_SPACE_ACTIONS, main.type) ?? `audit.${main.type.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`;
    const inner = main.inner ?? {};
    const res = inner['res'] ?? main.fields['res'];
    const failed = res === 'failed' || res === '0';
    action = base === 'auth' || base === 'auth.login' || base === 'auth.account' ? `${base}.${failed ? 'failure' : 'success'}` : base;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...main.fields, ...inner })) if (k !== 'msg') setOwn(fields, k, clip(v, 4096));
    attributes['fields'] = fields;
    if (res !== undefined) attributes['result'] = failed ? 'failed' : 'success';
    const account = inner['acct'] !== undefined ? (HEX.test(inner['acct']) ? decodeHexText(inner['acct']) : inner['acct']) : null;
    const who = userName(main, 'auid') ?? userName(main, 'uid');
    actor = account !== null ? { type: 'user', name: account } : who !== null ? { type: 'user', name: who } : actor;
    if (main.type === 'USER_CMD') {
      const cmd = inner['cmd'];
      const text = cmd === undefined ? '' : HEX.test(cmd) ? decodeHexText(cmd) : cmd;
      object = { type: 'process', name: text };
      attributes['commandLine'] = clip(text, 65536);
    } else if (main.type === 'SERVICE_START' || main.type === 'SERVICE_STOP') {
      object = { type: 'service', name: inner['unit'] ?? 'unknown' };
    } else if (main.type === 'LOGIN') {
      const to = userName(main, 'auid');
      object = to !== null ? { type: 'user', name: to } : null;
      actor = comm !== null ? { type: 'process', name: exe ?? comm } : actor;
    } else if (main.type === 'ANOM_PROMISCUOUS') {
      object = { type: 'network', name: main.fields['dev'] ?? 'interface' };
      actor = exe !== null ? { type: 'process', name: exe } : actor;
    } else if (main.type === 'AVC') {
      const op = main.fields['apparmor'] ?? main.fields['avc'] ?? '';
      attributes['decision'] = op;
      const name = main.fields['name'] ?? main.fields['path'];
      object = name !== undefined ? { type: 'file', name } : object;
      actor = exe !== null ? { type: 'process', name: exe } : actor;
    } else if (object === null && host !== null) object = { type: 'host', name: host };
    summary = `${main.type}${actor ? ` by ${actor.name}` : ''}${object ? ` on ${object.name}` : ''}`;
  }
  return { actor, action, object, summary: clip(summary, 512), attributes };
}

const kind = 'auditd' as const;

export const auditdLoader: Loader = {
  kind,
  id: 'auditd/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    if (sample.type !== 'file') return 0;
    const lines = headLines(sample.head, 200, sample.head.length >= sample.size)
      .filter((l) => !l.startsWith('#'))
      .slice(0, 20);
    if (lines.length === 0) return 0;
    const hits = lines.filter((l) => RECORD.test(l)).length;
    return hits / lines.length >= 0.8 ? 0.95 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    const file = source.file;
    const open = new Map<string, OpenEvent>();
    let lineNumber = 0;
    const finish = (ev: OpenEvent) => {
      open.delete(ev.key);
      const time = fromEpochSecondsText(ev.stamp);
      const host = ev.node ?? ctx.options.host ?? null;
      const d = describe(ev, host);
      const first = ev.offsets[0] as { offset: number; length: number };
      const last = ev.offsets[ev.offsets.length - 1] as { offset: number; length: number };
      const contiguous = ev.lines.every((n, i) => i === 0 || n === (ev.lines[i - 1] as number) + 1);
      return ctx.event({
        actor: d.actor,
        action: d.action,
        object: d.object,
        time: time === null ? { time: null, precision: 'none', source: 'auditd msg=audit() stamp (unreadable)' } : { time: time.time, precision: time.precision, source: 'auditd msg=audit() stamp' },
        host,
        summary: d.summary,
        attributes: { ...d.attributes, lines: ev.lines },
        record: {
          recordNumber: ev.lines[0] as number,
          ...(contiguous ? { offset: first.offset, length: last.offset + last.length - first.offset } : {}),
          rawSha256: ev.hash.digest('hex'),
        },
      });
    };
    for (const line of linesOf(file.chunks(), { onTooLong: (n, offset) => ctx.warn('line_too_long', 'a line longer than the limit was skipped', { line: n, offset }) })) {
      lineNumber = line.number;
      if (line.number % 4096 === 0) {
        ctx.checkCancelled();
        ctx.progress(file.size === 0 ? 1 : line.offset / file.size);
      }
      const text = line.text;
      if (text.trim() === '' || text.startsWith('#')) continue;
      const m = RECORD.exec(text);
      if (!m) {
        ctx.warn('unparsed_line', line.terminator === 0 ? 'the last line is cut short or not an audit record' : 'a line is not an audit record', { line: line.number, offset: line.offset });
        continue;
      }
      const [, node, type, stamp, serial, body] = m as unknown as [string, string | undefined, string, string, string, string];
      const key = `${node ?? ''}|${stamp}:${serial}`;
      let ev = open.get(key);
      if (!ev) {
        ev = { key, node: node ?? null, stamp, serial, records: [], lines: [], offsets: [], hash: createHash('sha256'), lastLine: line.number };
        open.set(key, ev);
      } else ev.hash.update('\n');
      ev.hash.update(line.bytes);
      ev.lines.push(line.number);
      ev.offsets.push({ offset: line.offset, length: line.bytes.length });
      ev.lastLine = line.number;
      if (type !== 'EOE') ev.records.push(parseAuditRecord(type, body));
      else ev.records.push({ type, fields: {}, unquoted: new Set(), enriched: {}, inner: null });
      if (type === 'EOE') yield finish(ev);
      else if (ev.records.length >= MAX_EVENT_RECORDS) {
        ctx.warn('event_split', `an event has ${MAX_EVENT_RECORDS} records: it is closed there and its later records start another`, { line: line.number, offset: line.offset });
        yield finish(ev);
      }
      // Records of one event arrive together; anything left open this long lost its EOE.
      if (open.size > 0 && line.number % 256 === 0) {
        for (const waiting of [...open.values()]) if (line.number - waiting.lastLine > OPEN_EVENT_WINDOW) yield finish(waiting);
      }
    }
    for (const waiting of [...open.values()]) yield finish(waiting);
    if (lineNumber === 0) ctx.warn('empty', 'the audit log holds no records');
    ctx.progress(1);
  },
};
