// The hand-read syslog header (scanBsdHeader, and the program split in parseSyslogLine) against the regular expressions it replaces, on real and mutated lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { MONTHS } from '../time.js';
import { BSD_HEADER, ISO_HEADER, isRegExpSpace, parseSyslogLine, scanBsdHeader, summaryMemo, syslogSummary, type SyslogLine } from './authlog.js';

/**
 * `program[pid]: message`, the program being everything up to the first `[pid]: ` or `: ` (as loghub splits it): what
 * the loader reads by hand after the header (the expression backtracks over long lines; it is the reference here).
 */
const PROGRAM = /^\s*(.+?)(?:\[(\d+)\])?:(?: (.*))?$/;

/** parseSyslogLine as written with the regular expressions alone. */
function reference(text: string): unknown {
  let host: string;
  let rest: string;
  let bsd: unknown = null;
  let iso: string | null = null;
  const b = BSD_HEADER.exec(text);
  if (b) {
    const month = MONTHS[b[1] as string];
    if (month === undefined) return null;
    bsd = { month, day: Number(b[2]), hour: Number(b[3]), minute: Number(b[4]), second: Number(b[5]), fraction: b[6] ?? '' };
    host = b[7] as string;
    rest = b[8] as string;
  } else {
    const i = ISO_HEADER.exec(text);
    if (!i) return null;
    iso = i[1] as string;
    host = i[2] as string;
    rest = i[3] as string;
  }
  const p = PROGRAM.exec(rest);
  if (!p) return { host, program: '', pid: null, message: rest.trim(), bsd, iso };
  return { host, program: (p[1] as string).trim(), pid: p[2] === undefined ? null : Number(p[2]), message: (p[3] ?? '').trim(), bsd, iso };
}

function bsdReference(text: string): unknown {
  const b = BSD_HEADER.exec(text);
  if (!b) return null;
  return { month: b[1], day: Number(b[2]), hour: Number(b[3]), minute: Number(b[4]), second: Number(b[5]), fraction: b[6] ?? '', host: b[7], rest: b[8] };
}

/** The summary built from the parsed fields, as the auth loader wrote it before it took the line's own text. */
const builtSummary = (p: SyslogLine): string => `${p.program}${p.pid !== null ? `[${p.pid}]` : ''}: ${p.message}`;

const check = (line: string): void => {
  expect(scanBsdHeader(line), JSON.stringify(line)).toEqual(bsdReference(line));
  const memo = summaryMemo();
  const parsed = parseSyslogLine(line, memo);
  expect(parsed, JSON.stringify(line)).toEqual(reference(line));
  expect(parseSyslogLine(line), JSON.stringify(line)).toEqual(parsed);
  if (parsed !== null) {
    // Read right after the parse (the line's own text when nothing was trimmed), of a copy and without the memo (always built).
    expect(syslogSummary(parsed, memo), JSON.stringify(line)).toBe(builtSummary(parsed));
    expect(syslogSummary({ ...parsed }, memo), JSON.stringify(line)).toBe(builtSummary(parsed));
    expect(syslogSummary(parsed), JSON.stringify(line)).toBe(builtSummary(parsed));
  }
};

/** Lines near the edges of each part of the header and of the program split. */
const EDGES = [
  'Jan  1 00:00:00 h sshd[1]: Accepted password for root',
  'Jan 1 00:00:00 h sshd[1]: x',
  'Jan   1 00:00:00 h sshd: x',
  'Jan 123 00:00:00 h a: b',
  'Jan 12 0:00:00 h a: b',
  'Jan 12 00:00:00.1 h a: b',
  'Jan 12 00:00:00.123456 h a: b',
  'Jan 12 00:00:00.1234567 h a: b',
  'Jan 12 00:00:00. h a: b',
  'Jan 12 00:00:00 h\ta: b',
  'Jan 12 00:00:00 h  a: b',
  'Jan 12 00:00:00  h a: b',
  'Jan 12 00:00:00 h',
  'Jan 12 00:00:00 h ',
  'Jan 12 00:00:00 h a\rb: c',
  'Jan 12 00:00:00 h a: b\u2028c',
  'Jan 12 00:00:00 h\u00a0x a: b',
  'Jan 12 00:00:00 h\u2028 a: b',
  'Foo 12 00:00:00 h a: b',
  'JAN 12 00:00:00 h a: b',
  'jan 12 00:00:00 h a: b',
  '<13>Jan 12 00:00:00 h a: b',
  '<1234>Jan 12 00:00:00 h a: b',
  '<>Jan 12 00:00:00 h a: b',
  '<13Jan 12 00:00:00 h a: b',
  '<13>1 2024-01-02T03:04:05.123+01:00 h a[2]: b',
  '2024-01-02T03:04:05Z h a: b',
  'Jan 12 00:00:00 h :',
  'Jan 12 00:00:00 h   : x',
  'Jan 12 00:00:00 h    ',
  'Jan 12 00:00:00 h a',
  'Jan 12 00:00:00 h a:',
  'Jan 12 00:00:00 h a:b',
  'Jan 12 00:00:00 h a:b: c',
  'Jan 12 00:00:00 h a[12]x: y',
  'Jan 12 00:00:00 h a[]: y',
  'Jan 12 00:00:00 h a[12]:y',
  'Jan 12 00:00:00 h a[12]:',
  'Jan 12 00:00:00 h a[12]',
  'Jan 12 00:00:00 h a[1][2]: y',
  'Jan 12 00:00:00 h  [3]: y',
  'Jan 12 00:00:00 h \t a b [3]:  y  ',
  'Jan 12 00:00:00 h sshd(pam_unix)[99999999999999999999]: z',
  'Jan 12 00:00:00 h \u3000a: \ufeffb\u3000',
  'Jan 12 00:00:00 h a: b [c]: d',
  'Jan 12 00:00:00 h a[012]: y',
  'Jan 12 00:00:00 h a[0]: y',
  'Jan 12 00:00:00 h a[00]: y',
  'Jan 12 00:00:00 h a[123456789012345]: y',
  'Jan 12 00:00:00 h a[1234567890123456]: y',
  'Jan 12 00:00:00 h a[9007199254740993]: y',
  'Jan 12 00:00:00 h a : y',
  'Jan 12 00:00:00 h a\t[1]: y',
  'Jan 12 00:00:00 h a: y ',
  'Jan 12 00:00:00 h a:  y',
  'Jan 12 00:00:00 h a[1]:  y',
  'Jan 12 00:00:00 h a[1]: y\t',
  'Jan 12 00:00:00 h a[1]: y\u3000',
  'Jan 12 00:00:00 h a: ',
  'Jan 12 00:00:00 h a[1]: ',
  'Jan 12 00:00:00 h a[1]:  ',
  'Jan 12 00:00:00 h a: \ufeff',
];

describe('the syslog header read by hand', () => {
  it('takes as white space exactly what \\s matches', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isRegExpSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c.toString(16));
    expect(differ).toEqual([]);
  });

  it('reads the edge lines as the regular expressions do', () => {
    for (const line of EDGES) check(line);
  });

  it('reads mutated lines as the regular expressions do (each character of the header replaced, dropped or doubled)', () => {
    const seeds = ['<34>Oct 11 22:14:15.003 mymachine su[230]: \'su root\' failed for lonvick on /dev/pts/8', 'Jun  9 06:06:20 combo sshd(pam_unix)[19939]: authentication failure; rhost=1.2.3.4', '2024-01-02T03:04:05.5-0130 h cron: x'];
    const alphabet = [' ', '\t', '0', '9', ':', '.', '[', ']', '<', '>', 'A', 'a', 'Z', '\r', '\u00a0', '\u2028', '-', '+', 'T'];
    let n = 0;
    for (const seed of seeds)
      for (let i = 0; i < Math.min(seed.length, 48); i++) {
        check(seed.slice(0, i) + seed.slice(i + 1));
        check(seed.slice(0, i) + (seed[i] as string) + seed.slice(i));
        for (const c of alphabet) {
          check(seed.slice(0, i) + c + seed.slice(i + 1));
          n++;
        }
      }
    expect(n).toBeGreaterThan(1000);
  });

  it('takes the summary as the line has it only where building it gives the same text (program, pid and message mutated)', () => {
    const seeds = ['Jan 12 00:00:00 h sshd[0123]: Failed password for root from 1.2.3.4 port 22 ssh2', 'Jan 12 00:00:00 h CRON[7]: (root) CMD (x)', 'Jan 12 00:00:00 h su: + pts/0 a:b'];
    const alphabet = [' ', '\t', '0', '1', ':', '[', ']', 'a', '\u00a0', '\u3000', '\ufeff'];
    let n = 0;
    for (const seed of seeds)
      for (let i = 18; i < seed.length; i++) {
        check(seed.slice(0, i) + seed.slice(i + 1));
        check(seed.slice(0, i) + (seed[i] as string) + seed.slice(i));
        for (const c of alphabet) {
          check(seed.slice(0, i) + c + seed.slice(i + 1));
          n++;
        }
      }
    expect(n).toBeGreaterThan(500);
  });

  it('keeps the summary text in the memo it is handed, one per reader: two readers never see each other\'s line', () => {
    const a = summaryMemo();
    const b = summaryMemo();
    const first = parseSyslogLine('Jan 12 00:00:00 h sshd[7]: Accepted password for root', a);
    const second = parseSyslogLine('Jan 12 00:00:01 h CRON[8]: (root) CMD (x)', b);
    expect(first).not.toBeNull();
    expect(a).toEqual({ line: first, summary: 'sshd[7]: Accepted password for root' });
    expect(b).toEqual({ line: second, summary: 'CRON[8]: (root) CMD (x)' });
    // The summary comes from the memo when the line is the memo's (a made-up text shows it is read, not rebuilt) ...
    expect(syslogSummary(first as SyslogLine, { line: first, summary: 'as written' })).toBe('as written');
    // ... and is built otherwise; a line that is not one the memo can take clears it.
    expect(syslogSummary(first as SyslogLine, b)).toBe('sshd[7]: Accepted password for root');
    expect(parseSyslogLine('Jan 12 00:00:02 h  sshd[9]: x ', a)).not.toBeNull();
    expect(a.line).toBeNull();
  });

  it.skipIf(!hasCorpora())('reads every line of the loghub Linux and OpenSSH logs as the regular expressions do', () => {
    let n = 0;
    for (const file of [['Linux', 'Linux_2k.log'], ['OpenSSH', 'OpenSSH_2k.log']] as const) {
      for (const line of readFileSync(corpusPath('logs', 'loghub', ...file), 'utf8').split('\n')) {
        check(line);
        n++;
      }
    }
    expect(n).toBeGreaterThan(3000);
  });
});
