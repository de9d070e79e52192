// Every command of every service's command line (read from its --help) given inputs that are not what it reads: no
// argument, a missing path, an empty file, random bytes, JSON of the wrong shape, a folder, malformed option values,
// an unknown option, and words named after Object.prototype members (`constructor`) as arguments, option values,
// JSON values, JSON member names and CSV column names. Each run ends with an exit code and a message: never a thrown
// error, a stack trace, "internal error" or no end, and no prototype is polluted. Commands that serve, watch, train or
// generate until stopped are left out (their own tests cover them).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../engines/core/cli.js';
import { main as attrib } from '../engines/attrib/cli.js';
import { main as caseassess } from '../engines/caseassess/cli.js';
import { main as flowdet } from '../engines/flowdet/cli.js';
import { main as forensic } from '../engines/forensic/cli.js';
import { main as petriage } from '../engines/petriage/cli.js';
import { main as pkgscan } from '../engines/pkgscan/cli.js';
import { main as provgate } from '../engines/provgate/cli.js';
import { main as replay } from '../engines/replay/cli.js';

const TOOLS: Readonly<Record<string, (argv: string[]) => Promise<CliResult>>> = { attrib, caseassess, flowdet, forensic, petriage, pkgscan, provgate, replay };
/** Commands that run until stopped or for minutes on any input. */
const LONG_RUNNING = /^(serve|worker|train|gen-corpus|run|seeds|steal|demo|generate|lineage)$/;

let dir: string;
let inputs: string[][];
const previous = { home: process.env['VITRINE_HOME'], root: process.env['VITRINE_EVIDENCE_ROOT'] };

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-sweep-'));
  process.env['VITRINE_HOME'] = path.join(dir, 'home');
  process.env['VITRINE_EVIDENCE_ROOT'] = dir;
  const file = (name: string, data: string | Buffer): string => {
    const p = path.join(dir, name);
    writeFileSync(p, data);
    return p;
  };
  const empty = file('empty.bin', '');
  const random = file('random.bin', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 256)));
  const json = file('shape.json', '{"type": "bundle", "objects": [{}], "flows": "x", "techniques": {"a": null}, "version": -1}');
  const folder = path.join(dir, 'folder');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'a.json'), '[1,2');
  writeFileSync(path.join(folder, 'b.bin'), Buffer.from([0x4d, 0x5a, 0, 0]));
  // Words a command looks up in a table (a scenario, a format, a kind, a level), named after Object.prototype members.
  const words = file('words.json', '{"type": "constructor", "kind": "toString", "format": "__proto__", "level": "valueOf", "objects": [{"type": "constructor"}]}');
  // The same names as member NAMES (a JSON object a command reads as a map, a bundle's objects, flows) and as a CSV column.
  const members = file(
    'members.json',
    '{"__proto__": {"type": "bundle", "polluted": 1}, "constructor": {"prototype": {"polluted2": 1}}, "type": "bundle", "objects": [{"__proto__": {"type": "indicator"}, "type": "constructor", "id": "x--1"}], "flows": [{"__proto__": {"dur": 1}, "constructor": 1, "toString": 2}], "dependencies": {"__proto__": "1", "constructor": "2"}, "ratings": {"__proto__": "C", "constructor": "I"}}',
  );
  const columns = file('columns.csv', '__proto__,constructor,toString,Label\n1,2,3,BENIGN\n4,5,6,constructor\n');
  inputs = [
    [], [path.join(dir, 'missing', 'x.bin')], [empty], [random], [json], [folder], [random, '--limit', 'x', '--seed', '-1'], [random, '--no-such-option'],
    ['constructor'], [words, '--format', 'constructor', '--kind', 'toString', '--level', '__proto__', '--min-level', 'valueOf'], [members], [columns],
  ];
});

afterAll(() => {
  for (const [k, v] of [['VITRINE_HOME', previous.home], ['VITRINE_EVIDENCE_ROOT', previous.root]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('command lines against inputs they do not read', () => {
  for (const [tool, main] of Object.entries(TOOLS)) {
    it(`${tool}: every command ends with a code and a message`, async () => {
      const help = await main(['--help']);
      const commands = [...new Set([...help.stdout.matchAll(new RegExp(`^\\s+${tool}(?: \\[[^\\]]*\\])? ([a-z][a-z0-9-]*)`, 'gm'))].map((m) => m[1]!))];
      expect(commands.length).toBeGreaterThan(0);
      // A bare word is a path to write for keygen (PREFIX.key, PREFIX.pub in the working folder): not given there.
      const runs: string[][] = commands.filter((c) => !LONG_RUNNING.test(c)).flatMap((c) => inputs.filter((a) => !(c === 'keygen' && a[0] === 'constructor')).map((a) => [c, ...a]));
      // flowdet's commands all read --data: each gets the same inputs there.
      if (tool === 'flowdet') for (const a of inputs) runs.push(['run', '--quick', '--out', path.join(dir, 'flowdet-out'), ...(a.length > 0 ? ['--data', ...a] : [])]);
      expect(runs.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const argv of runs) {
        const what = argv.map((a) => a.replace(dir, '<tmp>')).join(' ');
        let r: CliResult;
        try {
          r = await main(argv);
        } catch (e) {
          problems.push(`${what}: threw ${e instanceof Error ? e.name : typeof e}`);
          continue;
        }
        const text = r.stdout + r.stderr;
        if (!Number.isInteger(r.code)) problems.push(`${what}: no exit code`);
        if (/\n\s+at .+:\d+:\d+/.test(text)) problems.push(`${what}: a stack trace`);
        if (/internal error|TypeError|RangeError|Cannot read propert/.test(text)) problems.push(`${what}: ${r.stderr.trim().slice(0, 120)}`);
        if (r.code !== 0 && r.stderr.trim() === '' && r.stdout.trim() === '') problems.push(`${what}: exit ${r.code} with no message`);
      }
      // Object.prototype member names as the COMMAND: an unknown command, never a command's table entry found on the prototype.
      for (const word of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
        for (const argv of [[word], [word, '--help'], [word, '--out', path.join(dir, 'out.bin')]]) {
          const r = await main(argv);
          const text = r.stdout + r.stderr;
          if (argv[1] !== '--help' && r.code === 0) problems.push(`${argv.join(' ')}: exit 0 for an unknown command`);
          if (/native code|internal error|TypeError/.test(text)) problems.push(`${argv.join(' ')}: ${text.trim().slice(0, 120)}`);
        }
      }
      expect(problems).toEqual([]);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(({} as Record<string, unknown>)['polluted2']).toBeUndefined();
      // Nothing was written beside the tests (a relative word taken as an output path).
      expect(readdirSync(process.cwd()).filter((f) => f.startsWith('constructor'))).toEqual([]);
    }, 300_000);
  }
});
