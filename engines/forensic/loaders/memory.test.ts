// The memory loader on the corpus pstree and on every Volatility 3 renderer (hand-made fixtures): same events whatever the rendering; damage and links.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { ingestArtifact } from '../ingest.js';
import { pluginOf, rendererOf } from './memory.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'volatility3');
const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'forensic-memory-'));
  dirs.push(d);
  return d;
}

corpus('memory on the corpus', () => {
  it('the pstree tutorial output: 16 processes with their tree depth and parents', () => {
    const file = corpusPath('logs', 'volatility3', 'windows.pstree.head20.txt');
    const rows = readFileSync(file, 'utf8').split('\n').slice(4).filter((l) => l.trim() !== '');
    const r = ingestArtifact(file, { evidenceRoot: corpusPath(), host: 'PRAGYAN-PC' });
    expect(r.artifact).toMatchObject({ kind: 'memory', detectedBy: 'content', warningCount: 0 });
    expect(r.events).toHaveLength(rows.length);
    expect(r.events.every((e) => e.action === 'process.create' && e.host === 'PRAGYAN-PC')).toBe(true);
    const audiodg = r.events.find((e) => e.object?.name === 'audiodg.exe (pid 100)');
    expect(audiodg).toMatchObject({ actor: { type: 'process', name: 'svchost.exe (pid 804)' }, attributes: { depth: 3, plugin: 'pstree', renderer: 'text', PPID: '804' }, time: { time: '2022-02-07T16:30:14.000000Z', precision: 'microsecond' } });
    rows.forEach((line, i) => {
      const depth = /^(\**)/.exec(line)?.[1]?.length ?? 0;
      expect(r.events[i]?.attributes['depth']).toBe(depth);
    });
    // The folder form hashes its members and names them in each event's raw reference.
    const folder = ingestArtifact(path.dirname(file), { evidenceRoot: corpusPath(), host: 'PRAGYAN-PC' });
    expect(folder.artifact.members).toEqual([{ name: 'windows.pstree.head20.txt', sha256: r.artifact.sha256, size: r.artifact.size }]);
    expect(folder.events[0]?.raw).toMatchObject({ member: 'windows.pstree.head20.txt', memberSha256: r.artifact.sha256, recordNumber: 5 });
  });
});

describe('memory renderers', () => {
  const shape = (dir: string) => {
    const r = ingestArtifact(dir, { evidenceRoot: fixtures, host: 'WS01' });
    expect(r.artifact).toMatchObject({ kind: 'memory', warningCount: 0 });
    return {
      r,
      events: r.events.map((e) => `${e.action}|${e.actor?.name ?? ''}|${e.object?.name ?? ''}|${e.time.time ?? ''}|${String(e.attributes['depth'])}`).sort(),
    };
  };

  it('JSON, JSON lines, CSV and text renderings give the same events', () => {
    const json = shape(path.join(fixtures, 'json'));
    expect(json.events).toHaveLength(19);
    for (const other of ['jsonl', 'csv', 'text']) expect(shape(path.join(fixtures, other)).events).toEqual(json.events);
    const byAction: Record<string, number> = {};
    for (const e of json.r.events) byAction[e.action] = (byAction[e.action] ?? 0) + 1;
    expect(byAction).toEqual({ 'process.create': 9, 'process.exit': 1, 'network.listen': 2, 'network.connection': 1, 'process.commandline': 3, 'memory.injection_suspected': 1, 'module.load': 2 });
    const conn = json.r.events.find((e) => e.action === 'network.connection');
    expect(conn).toMatchObject({ actor: { name: 'rundll32.exe (pid 2688)' }, object: { type: 'network', name: '203.0.113.7:443' }, time: { time: '2022-02-07T16:40:16.000000Z', precision: 'microsecond' } });
    expect(json.r.events.find((e) => e.action === 'memory.injection_suspected')?.object?.name).toBe('rundll32.exe (pid 2688) 0x2a0000-0x2affff');
    expect(json.r.events.find((e) => e.action === 'process.commandline' && e.actor?.name.startsWith('cmd.exe') === true)?.attributes['commandLine']).toBe('C:\\Windows\\system32\\cmd.exe /c whoami > C:\\Users\\Public\\o.txt');
  });

  it('recognises plugins by columns and renderers by content', () => {
    expect(pluginOf(['PID', 'PPID', 'ImageFileName', 'CreateTime'], 'x.json', false)).toBe('pslist');
    expect(pluginOf(['PID', 'PPID', 'ImageFileName'], 'windows.pstree.txt', false)).toBe('pstree');
    expect(pluginOf(['Offset', 'Proto', 'LocalAddr', 'LocalPort', 'ForeignAddr'], '', false)).toBe('netscan');
    expect(pluginOf(['PID', 'Process', 'Args'], '', false)).toBe('cmdline');
    expect(pluginOf(['Name', 'Value'], '', false)).toBeNull();
    expect(rendererOf(Buffer.from('\n[\n  {\n    "PID": 4,\n    "__children": []'), false)).toBe('json');
    expect(rendererOf(Buffer.from('TreeDepth,PID,Process,Args\n'), true)).toBe('csv');
    expect(rendererOf(Buffer.from('hello world\n'), true)).toBeNull();
  });

  it('warns without a host, and skips what it does not read', () => {
    const dir = tmp();
    cpSync(path.join(fixtures, 'csv'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes.txt'), 'analyst notes, not plugin output\n');
    writeFileSync(path.join(dir, 'windows.info.csv'), 'TreeDepth,Variable,Value\n0,Kernel Base,0xf80002a0d000\n');
    const r = ingestArtifact(dir, { evidenceRoot: dir });
    expect(r.events).toHaveLength(19);
    expect(r.events.every((e) => e.host === null)).toBe(true);
    expect(r.artifact.warningCounts).toEqual({ no_host: 1, unrecognised_member: 1, unsupported_plugin: 1 });
  });

  it('keeps rows before damage: cut JSON, short rows, a link out of the evidence root', () => {
    const base = tmp();
    const root = path.join(base, 'evidence');
    const dir = path.join(root, 'mem');
    mkdirSync(dir, { recursive: true });
    const json = readFileSync(path.join(fixtures, 'json', 'windows.pstree.json'));
    writeFileSync(path.join(dir, 'windows.pstree.json'), json.subarray(0, json.length / 2));
    const text = readFileSync(path.join(fixtures, 'text', 'windows.netscan.txt'));
    writeFileSync(path.join(dir, 'windows.netscan.txt'), text.subarray(0, text.length - 30));
    writeFileSync(path.join(base, 'outside.txt'), readFileSync(path.join(fixtures, 'text', 'windows.cmdline.txt')));
    symlinkSync(path.join(base, 'outside.txt'), path.join(dir, 'windows.cmdline.txt'));
    const r = ingestArtifact(dir, { evidenceRoot: root, host: 'WS01' });
    expect(r.artifact.warningCounts).toEqual({ member_refused: 1, bad_json: 1, short_row: 1 });
    expect(r.events.map((e) => e.action)).toEqual(['network.listen', 'network.connection']);
    expect(r.artifact.members?.map((m) => m.name)).toEqual(['windows.netscan.txt', 'windows.pstree.json']);
  });
});

describe('memory columns and members named after Object.prototype members', () => {
  it('keeps them as own attributes and never reads a plugin column through a __proto__ member', () => {
    const dir = tmp();
    writeFileSync(
      path.join(dir, 'windows.cmdline.json'),
      '[{"Args":"a.exe /x","PID":1,"Process":"a.exe","__children":[]},{"PID":2,"Process":"b.exe","__proto__":{"Args":"from the prototype"},"constructor":"c","__children":[]}]',
    );
    writeFileSync(path.join(dir, 'windows.pstree.csv'), 'TreeDepth,PID,PPID,ImageFileName,CreateTime,__proto__,toString\n0,4,0,System,2022-02-07 16:00:00.000000 ,p,t\n');
    const r = ingestArtifact(dir, { evidenceRoot: dir, host: 'WS01' });
    const b = r.events.find((e) => e.actor?.name === 'b.exe (pid 2)');
    expect(b?.attributes['commandLine']).toBeNull();
    expect(Object.getPrototypeOf(b?.attributes)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(b?.attributes, '__proto__')?.value).toEqual({ Args: 'from the prototype' });
    expect(Object.getOwnPropertyDescriptor(b?.attributes, 'constructor')?.value).toBe('c');
    const system = r.events.find((e) => e.attributes['ImageFileName'] === 'System');
    expect(system).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(system?.attributes, '__proto__')?.value).toBe('p');
    expect(Object.getOwnPropertyDescriptor(system?.attributes, 'toString')?.value).toBe('t');
  });
});

describe('memory rows canonical JSON cannot hold', () => {
  it('a row with a number past a double or nesting past 64 levels is a bad_row warning; the other rows load', () => {
    const dir = tmp();
    const clean = readFileSync(path.join(fixtures, 'jsonl', 'windows.pstree.jsonl'), 'utf8');
    const whole = ingestArtifact(path.join(fixtures, 'jsonl', 'windows.pstree.jsonl'), { evidenceRoot: fixtures, host: 'WS01' });
    const lines = clean.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    // The first row's Handles past the range of a double (JSON.parse reads it as Infinity); the last row's Threads nested 5,000 deep.
    lines[0] = lines[0]!.replace(/"Handles": \d+/, '"Handles": 1e400');
    lines[lines.length - 1] = lines[lines.length - 1]!.replace(/"Threads": \d+/, `"Threads": ${'['.repeat(5000)}1${']'.repeat(5000)}`);
    writeFileSync(path.join(dir, 'windows.pstree.jsonl'), lines.join('\n'));
    const r = ingestArtifact('windows.pstree.jsonl', { evidenceRoot: dir, host: 'WS01' });
    expect(r.artifact.warningCounts).toEqual({ bad_row: 2 });
    expect(r.artifact.warnings.map((w) => w.message)).toEqual(['a JSON row is skipped: a number past the range of a double', 'a JSON row is skipped: nested deeper than 64 levels']);
    // Each skipped row takes its children with it; every other row is an event as before.
    const rows = clean.split('\n').filter((l) => l !== '');
    const skipped = new Set([rows[0]!, rows.at(-1)!].map((row) => (JSON.parse(row) as { PID: number }).PID));
    expect(r.events.length).toBeGreaterThan(0);
    expect(r.events.length).toBeLessThan(whole.events.length);
    expect(r.events.every((e) => !skipped.has(Number(e.attributes['PID'])))).toBe(true);
  });
});
