// The auditd loader against GROUND_TRUTH.json (events by serial, record types) and Laurel's JSON renderings (argv, proctitle, cwd, syscall fields).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { ingestArtifact, type IngestResult } from '../ingest.js';
import { decodeSockaddr, execveArgv, parseAuditFields, parseAuditRecord } from './auditd.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function loadText(text: string | Buffer): IngestResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'forensic-auditd-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'audit.log'), text);
  return ingestArtifact('audit.log', { evidenceRoot: dir, kind: 'auditd' });
}

interface AuditTruth {
  event_serials: number;
  record_types: Record<string, number>;
  laurel_json: string | null;
}

corpus('auditd on the Laurel test data', () => {
  const all = JSON.parse(readFileSync(corpusPath('logs', 'GROUND_TRUTH.json'), 'utf8')) as Record<string, AuditTruth>;
  const files = Object.entries(all).filter(([k]) => k.startsWith('auditd-laurel/'));

  it('covers every audit file of the corpus', () => {
    const onDisk = readdirSync(corpusPath('logs', 'auditd-laurel')).filter((f) => f.endsWith('.txt'));
    expect(files.map(([k]) => k.slice('auditd-laurel/'.length)).sort()).toEqual(onDisk.sort());
  });

  it.each(files)('%s: one event per serial, with every record type counted', (name, t) => {
    const r = ingestArtifact(corpusPath('logs', name), { evidenceRoot: corpusPath() });
    expect(r.artifact.kind).toBe('auditd');
    expect(r.events).toHaveLength(t.event_serials);
    const types: Record<string, number> = {};
    for (const e of r.events) for (const type of e.attributes['records'] as string[]) types[type] = (types[type] ?? 0) + 1;
    expect(types).toEqual(t.record_types);
    expect(new Set(r.events.map((e) => e.attributes['serial'])).size).toBe(t.event_serials);
    expect(r.artifact.warningCount).toBe(0);
    if (t.laurel_json === null || t.event_serials !== 1) return;
    const laurel = JSON.parse(readFileSync(corpusPath('logs', 'auditd-laurel', t.laurel_json), 'utf8')) as Record<string, Record<string, unknown>>;
    const e = r.events[0]!;
    expect(`${e.time.time}`).toBe(new Date(Number((laurel['ID'] as unknown as string).split(':')[0]) * 1000).toISOString());
    expect(e.attributes['serial']).toBe(Number((laurel['ID'] as unknown as string).split(':')[1]));
    if (laurel['EXECVE']) expect(e.attributes['argv']).toEqual(laurel['EXECVE']['ARGV']);
    if (laurel['PROCTITLE']) expect(e.attributes['proctitle']).toEqual(laurel['PROCTITLE']['ARGV']);
    if (laurel['CWD']) expect(e.attributes['cwd']).toBe(laurel['CWD']['cwd']);
    if (laurel['PATH']) expect((e.attributes['paths'] as { name: string }[]).map((p) => p.name)).toEqual((laurel['PATH'] as unknown as { name: string }[]).map((p) => p.name));
    const sys = laurel['SYSCALL'];
    if (sys) {
      expect(e.attributes['pid']).toBe(sys['pid']);
      expect(e.attributes['ppid']).toBe(sys['ppid']);
      expect(e.attributes['comm']).toBe(sys['comm']);
      expect(e.attributes['exe']).toBe(sys['exe']);
      expect(e.attributes['success']).toBe(sys['success'] === 'yes');
      if (typeof sys['SYSCALL'] === 'string') expect(e.attributes['syscall']).toBe(sys['SYSCALL']);
      if (sys['key'] !== null && sys['key'] !== undefined) expect(e.attributes['key']).toBe(sys['key']);
    }
  });

  it('gives the attack-like events their meaning', () => {
    const perl = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-perl-reverse-shell.txt'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(perl).toMatchObject({ action: 'process.exec', actor: { type: 'user', name: 'user' }, object: { type: 'process', name: '/usr/bin/perl' }, host: null });
    expect(perl.summary).toContain('exec perl -e use Socket;');
    const connect = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-connect.txt'), { evidenceRoot: corpusPath() }).events;
    expect(connect.map((e) => e.object?.name)).toEqual(['127.0.0.1:11211', '[::1]:11211']);
    const bind = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-bind-ipv4-bigendian.txt'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(bind).toMatchObject({ action: 'network.bind', object: { name: '0.0.0.0:55555' }, attributes: { arch: 'ppc64', syscall: 'bind' } });
    const node = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-execve.txt'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(node.host).toBe('work');
    const login = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-login.txt'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(login).toMatchObject({ action: 'session.login', object: { type: 'user', name: 'root' } });
    const service = ingestArtifact(corpusPath('logs', 'auditd-laurel', 'record-service-start.txt'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(service).toMatchObject({ action: 'service.start', object: { type: 'service', name: 'apt-daily' }, attributes: { result: 'success' } });
  });

  it('a copy cut inside a record keeps the complete events and loses no others', () => {
    const source = readFileSync(corpusPath('logs', 'auditd-laurel', 'proc-trace-dpkg-l.txt'));
    for (const fraction of [0.25, 0.5, 0.9]) {
      const cut = Math.floor(source.length * fraction);
      const r = loadText(source.subarray(0, cut));
      const full = source.subarray(0, cut).toString();
      const serials = new Set([...full.matchAll(/msg=audit\(\d+\.\d+:(\d+)\)/g)].map((m) => m[1]));
      // Every serial that appears whole is an event; the cut line is at most one warning.
      expect(r.events.length).toBeGreaterThanOrEqual(serials.size - 1);
      expect(r.events.length).toBeLessThanOrEqual(serials.size);
      expect(r.artifact.warningCount).toBeLessThanOrEqual(1);
    }
  });
});

describe('auditd records', () => {
  it('parse quoted, unquoted, nested and enriched fields', () => {
    const r = parseAuditRecord('USER_CMD', `pid=5 uid=1000 msg='cwd="/home/a" cmd=6C73202D6C6120 terminal=pts/0 res=success'\x1dUID="alice"`);
    expect(r.fields['pid']).toBe('5');
    expect(r.inner).toMatchObject({ cwd: '/home/a', cmd: '6C73202D6C6120', res: 'success' });
    expect(r.enriched).toEqual({ UID: 'alice' });
    expect(parseAuditFields('subj==unconfined key=(null) a[0]=x').fields).toEqual({ subj: '=unconfined', key: '(null)', 'a[0]': 'x' });
  });

  it('decode EXECVE arguments: quoted, hex, and split long arguments across records', () => {
    const recs = [parseAuditRecord('EXECVE', 'argc=3 a0="sh" a1=2D63 a2_len=8 a2[0]=6563'), parseAuditRecord('EXECVE', 'a2[1]=686F2068')];
    expect(execveArgv(recs)).toEqual({ argv: ['sh', '-c', 'echo h'], complete: true });
    expect(execveArgv([parseAuditRecord('EXECVE', 'argc=2 a0="x"')])).toEqual({ argv: ['x', ''], complete: false });
  });

  it('decode socket addresses by family and byte order', () => {
    expect(decodeSockaddr('02000050C0000201')).toEqual({ family: 'inet', port: 80, address: '192.0.2.1' });
    expect(decodeSockaddr('0002D903000000000000000000000000', true)).toEqual({ family: 'inet', port: 55555, address: '0.0.0.0' });
    expect(decodeSockaddr('01002F746D702F736F636B00')).toEqual({ family: 'unix', path: '/tmp/sock' });
    expect(decodeSockaddr('zz')).toBeNull();
  });

  it('turn user-space records and a sudo command into events, and garbage into warnings', () => {
    const text = [
      `type=USER_CMD msg=audit(1700000000.100:7): pid=5 uid=1000 auid=1000 ses=2 msg='cwd="/home/alice" cmd=2F62696E2F6261736820 terminal=pts/0 res=success'\x1dUID="alice" AUID="alice"`,
      `type=USER_LOGIN msg=audit(1700000001.000:8): pid=6 uid=0 auid=4294967295 ses=4294967295 msg='op=login acct="root" exe="/usr/sbin/sshd" hostname=? addr=203.0.113.5 terminal=ssh res=failed'`,
      'this line is not audit',
      'type=SYSCALL msg=audit(1700000002.000:9): arch=c000003e syscall=59 success=yes exit=0 items=1 ppid=1 pid=2 auid=0 uid=0 comm="id" exe="/usr/bin/id" key="exec"',
    ].join('\n');
    const r = loadText(`${text}\n`);
    expect(r.events.map((e) => [e.action, e.actor?.name ?? null, e.object?.name ?? null])).toEqual([
      ['sudo.command', 'alice', '/bin/bash '],
      ['auth.login.failure', 'root', null],
      ['process.exec', 'uid:0', '/usr/bin/id'],
    ]);
    expect(r.events[0]?.time).toEqual({ time: '2023-11-14T22:13:20.100Z', precision: 'millisecond', source: 'auditd msg=audit() stamp' });
    expect(r.artifact.warningCounts).toEqual({ unparsed_line: 1 });
    expect(loadText(Buffer.from([0, 1, 2, 255, 10, 65, 10])).artifact.warningCounts).toMatchObject({ unparsed_line: 2 });
  });

  it('reads record types, architectures and syscall names that are Object.prototype member names as unknown names, keeping every other event', () => {
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
    const text = names
      .flatMap((w, i) => [
        `type=${w} msg=audit(1700000000.000:${10 + i}): pid=1 uid=0 auid=0 ses=1 msg='op=x acct="root" exe="/bin/x" res=success'`,
        `type=SYSCALL msg=audit(1700000001.000:${20 + i}): arch=${w} syscall=59 success=yes exit=0 pid=2 uid=0 comm="id" exe="/usr/bin/id" key=(null)\x1dARCH=x86_64 SYSCALL=${w} AUID="root"`,
      ])
      .concat(['type=SYSCALL msg=audit(1700000002.000:30): arch=c000003e syscall=59 success=yes exit=0 items=1 ppid=1 pid=2 auid=0 uid=0 comm="id" exe="/usr/bin/id" key="exec"'])
      .join('\n');
    const r = loadText(`${text}\n`);
    expect(r.events).toHaveLength(names.length * 2 + 1);
    for (const e of r.events) expect(typeof e.action, JSON.stringify(e.attributes)).toBe('string');
    expect(r.events.filter((e) => e.attributes['arch'] !== undefined).map((e) => e.attributes['arch'])).toEqual(['x86_64']);
    expect(r.events.map((e) => e.action)).toEqual([
      ...names.flatMap((w) => [`audit.${w.toLowerCase()}`, `audit.syscall.${w}`]),
      'process.exec',
    ]);
  });

  it('keeps fields named after Object.prototype members, in the record and in its msg, as own fields of the event', () => {
    const r = loadText(`type=USER_ACCT msg=audit(1700000000.000:7): pid=1 uid=0 auid=0 __proto__=outer ses=1 msg='op=x constructor=c __proto__=inner toString=t acct="root" res=success'\n`);
    expect(r.events).toHaveLength(1);
    const fields = r.events[0]!.attributes['fields'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    // The msg's fields follow the record's: the inner __proto__ wins, as any other repeated name does.
    for (const [k, v] of [['__proto__', 'inner'], ['constructor', 'c'], ['toString', 't'], ['acct', 'root']]) expect(Object.getOwnPropertyDescriptor(fields, k!)?.value, k).toBe(v);
    expect(JSON.parse(JSON.stringify(r.events[0]!.attributes))).toMatchObject({ fields: JSON.parse('{"__proto__":"inner"}') as object });
  });

  it('binds an event to all its lines', () => {
    const text = 'type=SYSCALL msg=audit(1.000:1): syscall=1 pid=1\ntype=SYSCALL msg=audit(1.000:2): syscall=1 pid=2\ntype=EOE msg=audit(1.000:1): \n';
    const r = loadText(text);
    expect(r.events.map((e) => e.attributes['lines'])).toEqual([[1, 3], [2]]);
    expect(r.events[0]?.raw.offset).toBeUndefined();
    expect(r.events[1]?.raw).toMatchObject({ recordNumber: 2, offset: 49 });
    expect(existsSync(path.join(dirs[0] as string, 'audit.log'))).toBe(true);
  });
});

corpus('an EXECVE record with more arguments than a spread takes', () => {
  it('150,000 arguments without argc: one event, its argument vector cut at 100,000, the rest of the log kept', () => {
    const lines = readFileSync(corpusPath('logs', 'auditd-laurel', 'record-execve.txt'), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('type=EXECVE'));
    expect(at).toBeGreaterThanOrEqual(0);
    const whole = loadText(lines.join('\n'));
    // The corpus record's argc and arguments replaced with a0..a149999 (no argc: the count is the highest index + 1).
    lines[at] = lines[at]!.replace(/argc=\d+ .*/, Array.from({ length: 150_000 }, (_, k) => `a${k}="x"`).join(' '));
    const r = loadText(lines.join('\n'));
    expect(r.events).toHaveLength(whole.events.length);
    const { argv } = execveArgv([parseAuditRecord('EXECVE', lines[at]!.slice(lines[at]!.indexOf('): ') + 3))]);
    expect(argv).toHaveLength(100_000);
  });
});

corpus('a log that repeats one audit stamp', () => {
  it('closes the event at 1,000 records with an event_split warning, so one stamp cannot grow one event without bound', () => {
    const syscall = readFileSync(corpusPath('logs', 'auditd-laurel', 'record-execve.txt'), 'utf8').split('\n').find((l) => l.includes('type=SYSCALL'));
    expect(syscall).toBeDefined();
    const r = loadText(Array.from({ length: 2500 }, () => syscall).join('\n'));
    expect(r.artifact.warningCounts).toEqual({ event_split: 2 });
    expect(r.events.map((e) => (e.attributes['lines'] as number[]).length)).toEqual([1000, 1000, 500]);
    expect(r.events.map((e) => e.raw.recordNumber)).toEqual([1, 1001, 2001]);
  });
});
