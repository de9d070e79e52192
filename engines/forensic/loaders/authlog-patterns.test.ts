// The auth.log patterns that read a message in one pass give the answers the patterns before them gave (kept here), on
// messages generated from their own pieces, line terminators included; the attack shapes are in test/redos.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { classifyAuthMessage } from './authlog.js';

const OLD_SUDO = /^\s*(\S+) : (?:(\d+) incorrect password attempts? ; )?(?:(user NOT in sudoers|command not allowed) ; )?TTY=(\S+) ; PWD=(.*?) ; USER=(\S+) ;(?: COMMAND=(.*))?$/;
const OLD_SU = /^([+-]) (\S+) (\S+?):(\S+)$/;
const OLD_PAM = /authentication failure;.*?rhost=(\S*)(?:\s+user=(\S+))?/;
const OLD_SERVICE = (program: string): string => program.replace(/\(.*\)$/, '').replace(/^.*\//, '');

/** Texts of 1 to `max` pieces drawn from `pieces`, with line terminators and blanks among them. */
function texts(pieces: readonly string[], seed: number, count: number, max: number): string[] {
  const next = mulberry32(seed);
  const noise = [' ', ' ', '\t', '\n', '\r', '\u2028', 'x', ':', ';', '(', ')'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = '';
    const n = 1 + Math.floor(next() * max);
    for (let j = 0; j < n; j++) t += next() < 0.25 ? (noise[Math.floor(next() * noise.length)] as string) : (pieces[Math.floor(next() * pieces.length)] as string);
    out.push(t);
  }
  return out;
}

describe('auth.log patterns read in one pass', () => {
  it('sudo lines: the same user, counts, TTY, PWD, run-as user and command as before', () => {
    const pieces = ['alice', ' : ', 'TTY=pts/0', ' ; ', 'PWD=/home/a', 'PWD=', ' ; USER=root ;', 'USER=', ' COMMAND=', '/bin/ls -l', '3 incorrect password attempts ; ', 'user NOT in sudoers ; ', ' ; USER=D ; COMMAND=a', ' ', '  '];
    let hits = 0;
    for (const t of texts(pieces, 41, 20_000, 12)) {
      const msg = t.startsWith('  alice : TTY') ? t : (t.length % 3 === 0 ? `alice : TTY=pts/0 ; PWD=${t}` : t);
      const was = OLD_SUDO.exec(msg);
      const got = classifyAuthMessage('sudo', msg, 'h');
      if (was === null) {
        expect(got === null || got.action.startsWith('sudo.') === false, JSON.stringify(msg)).toBe(true);
        continue;
      }
      hits++;
      expect(got?.actor?.name, JSON.stringify(msg)).toBe(was[1]);
      expect(got?.attributes['cwd'], JSON.stringify(msg)).toBe(was[5]);
      expect(got?.attributes['runAs'], JSON.stringify(msg)).toBe(was[6]);
      expect(got?.attributes['tty'], JSON.stringify(msg)).toBe(was[4]);
      expect(got?.attributes['commandLine'], JSON.stringify(msg)).toBe(was[7]);
    }
    expect(hits).toBeGreaterThan(500);
    // Line terminators among the leading blanks are blanks to the pattern; one after them ends any match.
    expect(classifyAuthMessage('sudo', '\r\n alice : TTY=pts/0 ; PWD=/ ; USER=root ; COMMAND=/bin/ls', 'h')?.attributes['commandLine']).toBe('/bin/ls');
    expect(classifyAuthMessage('sudo', 'alice : TTY=pts/0 ; PWD=/ ; USER=root ; COMMAND=/bin/ls\r', 'h')).toBeNull();
  });

  it('su lines: the same sign, TTY and users as before', () => {
    const pieces = ['pts/0', 'alice', ':', 'root', '::', 'a:b', '\t', ' ', 'x'];
    const signs = texts(['+', '-', '+ ', '- '], 44, 20_000, 2);
    let hits = 0;
    for (const [i, rest] of texts(pieces, 43, 20_000, 9).entries()) {
      const msg = `${signs[i] as string}${rest}`;
      const was = OLD_SU.exec(msg);
      const got = classifyAuthMessage('su', msg, 'h');
      if (was === null) {
        expect(got, JSON.stringify(msg)).toBeNull();
        continue;
      }
      hits++;
      expect([got?.action, got?.attributes['tty'], got?.actor?.name, got?.object?.name], JSON.stringify(msg)).toEqual([was[1] === '-' ? 'su.failure' : 'su.success', was[2], was[3], was[4]]);
    }
    expect(hits).toBeGreaterThan(200);
  });

  it('pam authentication failures: the same remote host and user as before', () => {
    const pieces = ['authentication failure;', ' logname= uid=0', ' rhost=', 'rhost=10.0.0.1', ' user=root', 'user=', ' tty=ssh', 'authentication failure; rhost=a'];
    let hits = 0;
    for (const t of texts(pieces, 47, 20_000, 10)) {
      const msg = t.includes('authentication failure;') ? t : `authentication failure;${t}`;
      const was = OLD_PAM.exec(msg);
      const got = classifyAuthMessage('sshd(pam_unix)', msg, 'h');
      if (was === null) {
        expect(got?.action, JSON.stringify(msg)).not.toBe('auth.failure');
        continue;
      }
      hits++;
      expect([got?.action, got?.attributes['sourceHost'], got?.attributes['user']], JSON.stringify(msg)).toEqual(['auth.failure', was[1] || undefined, was[2] || undefined]);
    }
    expect(hits).toBeGreaterThan(1000);
  });

  it('program names: the same service as before, with and without a module in brackets', () => {
    const pieces = ['sshd', '(pam_unix)', '(', ')', '/usr/sbin/', 'su', '/', '((x))'];
    let hits = 0;
    for (const program of texts(pieces, 53, 20_000, 6)) {
      const got = classifyAuthMessage(program, 'session closed for user bob', 'h');
      expect(got?.attributes['service'], JSON.stringify(program)).toBe(program === '' ? undefined : OLD_SERVICE(program));
      if (OLD_SERVICE(program) !== program) hits++;
    }
    expect(hits).toBeGreaterThan(1000);
  });
});
