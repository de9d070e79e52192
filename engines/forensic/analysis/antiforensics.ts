// Stage 6: the anti-forensics scan. A registry of indicators; together they make one verdict and a per-host penalty.
import type { IndicatorSeverity, TamperingIndicator, TamperingVerdict } from '../../core/contracts/forensic.js';
import type { AnalysisEvent, EventSeq } from './events.js';
import { attr, commandLine, timeMs, windowsEventId } from './facts.js';
import { COMMAND_PATTERNS, patternText } from './patterns.js';
import { parseTimeMs } from '../time.js';
import { grownColumn } from '../../core/columns.js';

/** How much one indicator of each severity takes off a host's stories (multiplicative penalty = 1 - sum, floored). */
export const SEVERITY_PENALTY: Readonly<Record<IndicatorSeverity, number>> = { low: 0.05, medium: 0.1, high: 0.2 };
/** The penalty never goes below this: tampering makes a story less sure, never worthless. */
export const PENALTY_FLOOR = 0.5;

/** A record-id sequence is "contiguous" when at least this share of steps is +1; only then is a hole suspicious. */
export const RECORD_GAP_CONTIGUITY = 0.9;
/** A silence in a log counts when longer than this many median spacings and at least the minimum below. */
export const TIME_GAP_FACTOR = 200;
export const TIME_GAP_MIN_MS = 6 * 3600 * 1000;
/** Fewer events than this in a log say nothing about its rhythm. */
const TIME_GAP_MIN_EVENTS = 50;

export interface AntiForensicsCheck {
  readonly kind: string;
  readonly description: string;
  /** Indicators from all events (time-ordered). */
  scan(events: EventSeq): TamperingIndicator[];
  /**
   * The same scan fed one event at a time, so scanAntiForensics reads the events once for all checks (an EventList
   * makes each event on every read). Optional: a check without it is run with scan.
   */
  stream?(): CheckStream;
}

/** One run of a check over events given in order: `event` for each (with its position), then `finish`. */
export interface CheckStream {
  event(e: AnalysisEvent, at: number): void;
  /** The indicators; `events` is the sequence the events came from, to read a few again by position. */
  finish(events: EventSeq): TamperingIndicator[];
}

/** A check from its streaming form: scan runs the stream over the events. */
function streamed(kind: string, description: string, stream: () => CheckStream): AntiForensicsCheck {
  return {
    kind,
    description,
    stream,
    scan(events) {
      const s = stream();
      let at = 0;
      for (const e of events) s.event(e, at++);
      return s.finish(events);
    },
  };
}

const ind = (kind: string, severity: IndicatorSeverity, summary: string, events: readonly AnalysisEvent[], techniques: readonly string[]): TamperingIndicator => {
  const first = events[0];
  return { kind, severity, summary, host: first?.host ?? null, time: first?.time.time ?? null, eventIds: events.map((e) => e.eventId), techniques: [...techniques] };
};

/** An indicator per matching event. */
function perEvent(kind: string, description: string, match: (e: AnalysisEvent) => { severity: IndicatorSeverity; summary: string; techniques: readonly string[] } | null): AntiForensicsCheck {
  return streamed(kind, description, () => {
    const out: TamperingIndicator[] = [];
    return {
      event(e) {
        const m = match(e);
        if (m) out.push(ind(kind, m.severity, m.summary, [e], m.techniques));
      },
      finish: () => out,
    };
  });
}

const provider = (e: AnalysisEvent): string => String(e.attributes['provider'] ?? '');
/**
 * windowsEventId of the event read last, kept: five checks ask it of each event in a row, and each asking read two
 * attributes through a keyed load on records of many shapes. The event is held, so no other object can be it.
 */
let idEvent: AnalysisEvent | null = null;
let idOfEvent: number | null = null;
const eventIdOf = (e: AnalysisEvent): number | null => {
  if (e !== idEvent) {
    idOfEvent = windowsEventId(e);
    idEvent = e;
  }
  return idOfEvent;
};
/** The command-line patterns of each technique, in their order. */
const PATTERNS_OF: ReadonlyMap<string, readonly RegExp[]> = (() => {
  const m = new Map<string, RegExp[]>();
  for (const p of COMMAND_PATTERNS) {
    const list = m.get(p.technique);
    if (list) list.push(p.pattern);
    else m.set(p.technique, [p.pattern]);
  }
  return m;
})();
/** Command lines up to this long have their answers kept, per technique (command lines repeat across events). */
const KEPT_COMMAND_LENGTH = 256;
const KEPT_COMMANDS = 50_000;
/** Per kept command line, the techniques found (true) or not (false) so far; the patterns hold no state (no g or y flag). */
const commandAnswers = new Map<string, Map<string, boolean>>();

/**
 * The event commandMatches read last, its command line and that line's kept answers: the checks ask about one event
 * several times in a row (one technique each), so the line is read and its answers found once an event.
 */
let askedEvent: AnalysisEvent | null = null;
let askedCommand: string | null = null;
/** What the patterns read of that line (patternText). */
let askedText = '';
let askedAnswers: Map<string, boolean> | undefined;

const commandMatches = (e: AnalysisEvent, technique: string): boolean => {
  if (e !== askedEvent) {
    askedEvent = e;
    askedCommand = commandLine(e);
    askedText = askedCommand === null ? '' : patternText(askedCommand);
    askedAnswers = askedCommand !== null && askedCommand.length <= KEPT_COMMAND_LENGTH ? commandAnswers.get(askedCommand) : undefined;
  }
  const cmd = askedCommand;
  if (cmd === null) return false;
  let answers = askedAnswers;
  const known = answers?.get(technique);
  if (known !== undefined) return known;
  const found = (PATTERNS_OF.get(technique) ?? []).some((p) => p.test(askedText));
  if (answers === undefined && cmd.length <= KEPT_COMMAND_LENGTH && commandAnswers.size < KEPT_COMMANDS) commandAnswers.set(cmd, (askedAnswers = answers = new Map()));
  answers?.set(technique, found);
  return found;
};
const isProcessLike = (e: AnalysisEvent): boolean => e.action === 'process.create' || e.action === 'process.exec' || e.action === 'sudo.command' || e.action === 'cron.command' || e.action === 'process.commandline' || e.action === 'script.block';

const logCleared = perEvent('log-cleared', 'An event log was cleared (Security 1102, System 104) or a command cleared one (wevtutil cl, Clear-EventLog).', (e) => {
  const id = eventIdOf(e);
  if (e.action === 'log.clear' || ((id === 1102 || id === 104) && /Eventlog/i.test(provider(e))))
    return { severity: 'high', summary: `the ${e.object?.name ?? 'event'} log was cleared`, techniques: ['T1685.005'] };
  if (isProcessLike(e) && commandMatches(e, 'T1685.005')) return { severity: 'high', summary: 'a command cleared an event log', techniques: ['T1685.005'] };
  if (isProcessLike(e) && commandMatches(e, 'T1685.006')) return { severity: 'high', summary: 'a command deleted or truncated system logs', techniques: ['T1685.006'] };
  return null;
});

const serviceStopped = perEvent('logging-stopped', 'The event-log or audit service stopped (1100, 7036 for EventLog, auditd DAEMON_END) or a command stopped it.', (e) => {
  const id = eventIdOf(e);
  if (id === 1100 && /Eventlog/i.test(provider(e))) return { severity: 'medium', summary: 'the event logging service shut down', techniques: ['T1685.001'] };
  if (e.action === 'service.state' && /event ?log|auditd|rsyslog/i.test(e.object?.name ?? '') && /stop/i.test(attr(e, 'state') ?? '')) return { severity: 'high', summary: 'a logging service was stopped', techniques: ['T1685.001'] };
  if (e.action === 'audit.daemon_end' || (e.action === 'service.stop' && /auditd|rsyslog|journald/i.test(attr(e, 'unit') ?? e.object?.name ?? ''))) return { severity: 'medium', summary: 'the audit daemon stopped', techniques: ['T1685.001'] };
  if (isProcessLike(e) && commandMatches(e, 'T1685.001')) return { severity: 'high', summary: 'a command stopped logging or changed the audit policy', techniques: ['T1685.001'] };
  return null;
});

const auditPolicy = perEvent('audit-policy-changed', 'The audit policy changed (Security 4719, 4906, 4912; auditd CONFIG_CHANGE that removes rules).', (e) => {
  const id = eventIdOf(e);
  if ((id === 4719 || id === 4906 || id === 4912) && /Security/i.test(provider(e))) return { severity: 'medium', summary: 'the system audit policy was changed', techniques: ['T1685.001'] };
  if (e.action === 'audit.config_change') {
    const op = attr(e, 'op') ?? JSON.stringify(e.attributes['fields'] ?? '');
    if (/remove|del|audit_enabled=0|"0"/i.test(op)) return { severity: 'medium', summary: 'audit rules were removed or auditing disabled', techniques: ['T1685.001'] };
  }
  return null;
});

const timeChanged = perEvent('system-time-changed', 'The system time was changed (Security 4616 by a user, auditd time injection, date -s, Set-Date).', (e) => {
  const id = eventIdOf(e);
  if (id === 4616 && /Security/i.test(provider(e))) {
    const proc = attr(e, 'ProcessName') ?? '';
    // The time service and VM tools adjust the clock all the time.
    if (/svchost\.exe|vmtoolsd\.exe|w32tm\.exe/i.test(proc)) return null;
    return { severity: 'medium', summary: 'the system time was changed', techniques: ['T1070.006'] };
  }
  if (e.action === 'time.adjust') return { severity: 'low', summary: 'the clock was adjusted', techniques: [] };
  // The command line is read only for the actions that have one.
  const cmd = isProcessLike(e) ? commandLine(e) : null;
  if (cmd !== null && /\bdate\s+(?:-s|--set)\b|Set-Date\b|timedatectl\s+set-time|\bhwclock\s+--set/i.test(cmd)) return { severity: 'medium', summary: 'a command set the system time', techniques: ['T1070.006'] };
  return null;
});

const shadowCopies = perEvent('shadow-copies-deleted', 'Shadow copies or backups deleted (vssadmin delete shadows, wmic shadowcopy delete, wbadmin, bcdedit recovery off).', (e) =>
  isProcessLike(e) && commandMatches(e, 'T1490') ? { severity: 'high', summary: 'shadow copies or backups were deleted', techniques: ['T1490'] } : null,
);

const timestomp = perEvent('timestomping', 'A file creation time was changed (Sysmon 2), touch -t/-r, or a command set file times.', (e) => {
  const id = eventIdOf(e);
  if (id === 2 && /Sysmon/i.test(provider(e))) return { severity: 'medium', summary: `a file's creation time was changed${attr(e, 'TargetFilename') !== null ? '' : ''}`, techniques: ['T1070.006'] };
  if (isProcessLike(e) && commandMatches(e, 'T1070.006')) return { severity: 'medium', summary: 'a command set file times', techniques: ['T1070.006'] };
  return null;
});

const historyWiped = perEvent('history-wiped', 'Shell history cleared or disabled (history -c, HISTFILE=/dev/null, removing .bash_history), or the history file deleted (auditd).', (e) => {
  if (isProcessLike(e) && commandMatches(e, 'T1070.003')) return { severity: 'high', summary: 'shell history was cleared or disabled', techniques: ['T1070.003'] };
  if ((e.action === 'file.delete' || e.action === 'file.rename') && /\.(?:bash|zsh|sh)_history$|\/(?:wtmp|btmp|lastlog)$/.test(e.object?.name ?? '')) return { severity: 'high', summary: 'a history or login-record file was deleted', techniques: ['T1070.003'] };
  // The paths' JSON text is made only for a deletion, the one action tested on it.
  if (e.action === 'file.delete' && /_history|\/var\/log\/(?:auth|secure|wtmp|btmp|lastlog)/.test(JSON.stringify(e.attributes['paths'] ?? ''))) return { severity: 'high', summary: 'a history or log file was deleted', techniques: ['T1070.003'] };
  return null;
});

/** $STANDARD_INFORMATION creation earlier than $FILE_NAME creation of one file in a timeline: the classic timestomp sign. */
const siFn: AntiForensicsCheck = streamed('timestomping-si-fn', 'In timeline input, a file whose $STANDARD_INFORMATION creation time is earlier than its $FILE_NAME creation time.', () => {
  const created = new Map<string, { si?: AnalysisEvent; fn?: AnalysisEvent }>();
  return {
    event(e) {
      if (e.kind !== 'timeline' || e.object?.type !== 'file') return;
      const desc = `${String(e.attributes['timestamp_desc'] ?? e.attributes['timestampDesc'] ?? '')} ${String(e.attributes['attribute_type'] ?? e.attributes['attribute_name'] ?? '')} ${e.time.source}`;
      if (!/creat|birth|crtime/i.test(desc)) return;
      const isFn = /\$FILE_NAME|\bFN\b|0x30|\b48\b|file_name/i.test(desc);
      const isSi = /\$STANDARD_INFORMATION|\bSI\b|0x10|\b16\b|standard_information/i.test(desc);
      if (!isFn && !isSi) return;
      const k = `${e.host ?? '?'}|${e.object.name.toLowerCase()}`;
      const slot = created.get(k) ?? {};
      if (isFn) slot.fn = e;
      else slot.si = e;
      created.set(k, slot);
    },
    finish() {
      const out: TamperingIndicator[] = [];
      for (const { si, fn } of created.values()) {
        if (!si || !fn) continue;
        const a = timeMs(si);
        const b = timeMs(fn);
        if (a !== null && b !== null && a < b - 1000) out.push(ind('timestomping', 'medium', 'a file\'s $SI creation time is earlier than its $FN creation time', [si, fn], ['T1070.006']));
      }
      return out;
    },
  };
});

/**
 * Per log, a number of each event and the event's position, in typed arrays that grow by doubling (not an object per
 * event, which at a million events is two million objects the collector walks again and again).
 */
export class NumberList {
  values = new Float64Array(16);
  ats = new Uint32Array(16);
  n = 0;

  push(value: number, at: number): void {
    if (this.n === this.values.length) {
      this.values = grownColumn(this.values, this.n * 2);
      this.ats = grownColumn(this.ats, this.n * 2);
    }
    this.values[this.n] = value;
    this.ats[this.n] = at;
    this.n++;
  }

  /**
   * Positions 0..n-1 ordered by value, ties in insertion order (what a stable sort of the pairs gives). Values pushed
   * in order (a log's times, read in time order; its record numbers, which rise with them) are that order already: one
   * pass tells so and the sort is skipped (a million-entry sort with a comparator is about 0.2 s). Any value out of
   * order, or a NaN, takes the sort.
   */
  order(): Uint32Array {
    const order = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) order[i] = i;
    const v = this.values;
    let sorted = true;
    for (let i = 1; i < this.n && sorted; i++) sorted = (v[i - 1] as number) <= (v[i] as number);
    return sorted ? order : this.orderBySort();
  }

  /** order() by the sort alone (the path for values out of order; the tests compare order() with it). */
  orderBySort(): Uint32Array {
    const order = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) order[i] = i;
    const v = this.values;
    return order.sort((i, j) => (v[i] as number) - (v[j] as number) || i - j);
  }
}

/**
 * The lists of a check by log key, in the order logs first appear. The key text of a (host, channel, artefact) triple
 * is made once per distinct triple (found again through maps on the values themselves), not once per event.
 */
class LogLists {
  readonly lists = new Map<string, NumberList>();
  private readonly keys = new Map<unknown, Map<unknown, Map<unknown, NumberList>>>();

  /** The triple asked last and its list: consecutive events nearly always come from one log. */
  private lastA: unknown = undefined;
  private lastB: unknown = undefined;
  private lastC: unknown = undefined;
  private lastList: NumberList | null = null;

  list<A, B, C>(a: A, b: B, c: C, key: (a: A, b: B, c: C) => string): NumberList {
    // Equal by === is equal as a Map key (SameValueZero); a NaN key (never equal by ===) takes the maps.
    if (this.lastList !== null && a === this.lastA && b === this.lastB && c === this.lastC) return this.lastList;
    const list = this.find(a, b, c, key);
    this.lastA = a;
    this.lastB = b;
    this.lastC = c;
    this.lastList = list;
    return list;
  }

  private find<A, B, C>(a: A, b: B, c: C, key: (a: A, b: B, c: C) => string): NumberList {
    let byB = this.keys.get(a);
    if (byB === undefined) this.keys.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (byC === undefined) byB.set(b, (byC = new Map()));
    let list = byC.get(c);
    if (list === undefined) {
      const k = key(a, b, c);
      list = this.lists.get(k);
      if (list === undefined) this.lists.set(k, (list = new NumberList()));
      byC.set(c, list);
    }
    return list;
  }
}

/** The key texts of a log (the functions themselves are passed: no closure made per event). */
const recordLogKey = (host: string | null, channel: unknown, sha: string): string => `${host ?? '?'}|${String(channel)}|${sha}`;
const timeLogKey = (host: string | null, sha: string, channel: unknown): string => `${host ?? '?'}|${sha}|${String(channel ?? '')}`;

/** Holes in a log's record numbers, where the log is otherwise contiguous (Windows EventRecordID per host and channel). */
const recordGap: AntiForensicsCheck = streamed('record-id-gap', 'A hole in a Windows log\'s EventRecordID sequence that is otherwise contiguous (records deleted or the log edited).', () => {
  // Each record's id and its position in events, per log (the events themselves are read again only for a gap).
  const byLog = new LogLists();
  return {
    event(e, at) {
      const raw = e.attributes['eventRecordId'] ?? e.attributes['recordId'];
      const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null;
      const channel = e.attributes['channel'];
      if (id === null || channel === undefined) return;
      byLog.list(e.host, channel, e.raw.artifactSha256, recordLogKey).push(id, at);
    },
    finish(events) {
      const out: TamperingIndicator[] = [];
      for (const list of byLog.lists.values()) {
        if (list.n < 10) continue;
        const order = list.order();
        const ids = list.values;
        const idAt = (k: number): number => ids[order[k] as number] as number;
        let ones = 0;
        for (let i = 1; i < list.n; i++) if (idAt(i) - idAt(i - 1) === 1) ones++;
        if (ones / (list.n - 1) < RECORD_GAP_CONTIGUITY) continue;
        for (let i = 1; i < list.n; i++) {
          const gap = idAt(i) - idAt(i - 1);
          if (gap <= 1) continue;
          const ea = events.at(list.ats[order[i - 1] as number] as number) as AnalysisEvent;
          out.push(ind('record-id-gap', 'medium', `${gap - 1} record(s) missing from the ${String(ea.attributes['channel'])} log`, [ea, events.at(list.ats[order[i] as number] as number) as AnalysisEvent], ['T1070']));
        }
      }
      return out;
    },
  };
});

/** A long silence in an otherwise busy log (per host and loader). */
const timeGap: AntiForensicsCheck = streamed('time-gap', `A silence longer than ${TIME_GAP_FACTOR} median spacings (and at least ${TIME_GAP_MIN_MS / 3600000} hours) in a log that otherwise writes often.`, () => {
  // Each event's time and its position in events, per log (the events themselves are read again only for a gap).
  const byLog = new LogLists();
  return {
    event(e, at) {
      const ms = timeMs(e);
      if (ms === null || e.kind === 'timeline' || e.kind === 'memory') return;
      const channel = e.attributes['channel'];
      byLog.list(e.host, e.raw.artifactSha256, channel, timeLogKey).push(ms, at);
    },
    finish(events) {
      const out: TamperingIndicator[] = [];
      for (const list of byLog.lists.values()) {
        if (list.n < TIME_GAP_MIN_EVENTS) continue;
        const order = list.order();
        const gaps = new Float64Array(list.n - 1);
        for (let i = 1; i < list.n; i++) gaps[i - 1] = (list.values[order[i] as number] as number) - (list.values[order[i - 1] as number] as number);
        const sorted = gaps.slice().sort();
        const median = sorted[Math.floor(sorted.length / 2)] as number;
        const limit = Math.max(TIME_GAP_MIN_MS, median * TIME_GAP_FACTOR);
        for (let i = 0; i < gaps.length; i++) {
          const g = gaps[i] as number;
          if (g > limit) out.push(ind('time-gap', 'low', `the log is silent for ${Math.round(g / 3600000)} hours`, [events.at(list.ats[order[i] as number] as number) as AnalysisEvent, events.at(list.ats[order[i + 1] as number] as number) as AnalysisEvent], ['T1070']));
        }
      }
      return out;
    },
  };
});

/** The built-in checks. */
export const ANTI_FORENSICS_CHECKS: readonly AntiForensicsCheck[] = [logCleared, serviceStopped, auditPolicy, timeChanged, shadowCopies, timestomp, siFn, historyWiped, recordGap, timeGap];

/** Penalty of a host from its indicators: 1 minus the sum over indicator kinds of each kind's worst severity, floored at PENALTY_FLOOR. */
export function penaltyOf(indicators: readonly TamperingIndicator[]): number {
  const worst = new Map<string, number>();
  for (const i of indicators) worst.set(i.kind, Math.max(worst.get(i.kind) ?? 0, SEVERITY_PENALTY[i.severity]));
  const sum = [...worst.values()].reduce((s, x) => s + x, 0);
  return Math.max(PENALTY_FLOOR, Math.round((1 - sum) * 1000) / 1000);
}

/** Indicators of one kind, host and summary this close in time are one act seen twice (Sysmon 1 and 4688 of one process). */
export const INDICATOR_MERGE_MS = 5000;

function dedupe(list: TamperingIndicator[]): void {
  for (let i = 0; i < list.length; i++) {
    const a = list[i] as TamperingIndicator;
    for (let j = i + 1; j < list.length; j++) {
      const b = list[j] as TamperingIndicator;
      const ta = a.time === null ? null : parseTimeMs(a.time);
      const tb = b.time === null ? null : parseTimeMs(b.time);
      if (ta !== null && tb !== null && tb - ta > INDICATOR_MERGE_MS) break;
      if (b.kind !== a.kind || b.host !== a.host || b.summary !== a.summary || (ta === null) !== (tb === null)) continue;
      list[i] = { ...a, eventIds: [...a.eventIds, ...b.eventIds.filter((id) => !a.eventIds.includes(id))] };
      list.splice(j, 1);
      j--;
    }
  }
}

/**
 * The scan fed one event at a time (`event`, with its position), then `finish`: so the analysis reads each event once
 * for the scan and its other per-event passes together. The checks with a streaming form take the events as they
 * come; a check that throws (at any point) gives no indicators, as when it is run alone; a check without a streaming
 * form is run over the events at the end.
 */
export class AntiForensicsScan {
  private readonly streams: (CheckStream | null)[];
  private readonly failed: boolean[];

  constructor(private readonly checks: readonly AntiForensicsCheck[] = ANTI_FORENSICS_CHECKS) {
    this.streams = checks.map((c) => {
      try {
        return c.stream?.() ?? null;
      } catch {
        return null;
      }
    });
    this.failed = checks.map(() => false);
  }

  event(e: AnalysisEvent, at: number): void {
    const streams = this.streams;
    for (let i = 0; i < streams.length; i++) {
      const s = streams[i];
      if (s === null || s === undefined || this.failed[i] === true) continue;
      try {
        s.event(e, at);
      } catch {
        this.failed[i] = true;
      }
    }
  }

  /** The verdict and per-host penalties, from the events given (in the order they were fed). */
  finish(events: EventSeq): { verdict: TamperingVerdict; hostPenalty: ReadonlyMap<string | null, number> } {
    return verdictOf(this.checks, this.streams, this.failed, events);
  }
}

/** The scan: all indicators, the worst host's penalty, and per-host penalties for the stories. */
export function scanAntiForensics(events: EventSeq, checks: readonly AntiForensicsCheck[] = ANTI_FORENSICS_CHECKS): { verdict: TamperingVerdict; hostPenalty: ReadonlyMap<string | null, number> } {
  const scan = new AntiForensicsScan(checks);
  let at = 0;
  for (const e of events) scan.event(e, at++);
  return scan.finish(events);
}

function verdictOf(checks: readonly AntiForensicsCheck[], streams: readonly (CheckStream | null)[], failed: readonly boolean[], events: EventSeq): { verdict: TamperingVerdict; hostPenalty: ReadonlyMap<string | null, number> } {
  const indicators: TamperingIndicator[] = [];
  checks.forEach((c, i) => {
    if (failed[i] === true) return;
    const s = streams[i];
    try {
      indicators.push(...(s === null || s === undefined ? c.scan(events) : s.finish(events)));
    } catch {
      // A check never sinks the analysis; an event shape it did not expect only means no indicator.
    }
  });
  indicators.sort((a, b) => (a.time ?? '').localeCompare(b.time ?? '') || a.kind.localeCompare(b.kind));
  dedupe(indicators);
  const byHost = new Map<string | null, TamperingIndicator[]>();
  for (const i of indicators) {
    const list = byHost.get(i.host);
    if (list) list.push(i);
    else byHost.set(i.host, [i]);
  }
  const hostPenalty = new Map<string | null, number>();
  for (const [h, list] of byHost) hostPenalty.set(h, penaltyOf(list));
  const penalty = Math.min(1, ...hostPenalty.values());
  return { verdict: { tampered: indicators.some((i) => i.severity !== 'low'), penalty, indicators }, hostPenalty };
}
