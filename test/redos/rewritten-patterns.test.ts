/**
 * Patterns rewritten to drop a quadratic ambiguity (two adjacent quantifiers that could share the same characters):
 * each answers what the old one answered over generated texts, and the call sites finish on the checker's attack
 * shapes in a child process with a generous deadline (a hang check, not a timing assertion).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeIndicator } from '../../engines/core/findings.js';
import { parseNumericCell } from '../../engines/core/ml/dataset.js';
import { pep508Parts } from '../../engines/core/manifests/declared.js';
import { keyLine } from '../../engines/core/manifests/toml-blocks.js';
import { mulberry32 } from '../../engines/core/random.js';
import { SHELL_CHMOD } from '../../engines/pkgscan/analyzers/source/detectors-text.js';
import { EVAL_SINK_HINT } from '../../engines/pkgscan/analyzers/source/detectors.js';
import { REQUIREMENT_HEAD } from '../../engines/pkgscan/package/metadata.js';
import { REQUIREMENTS_NAME } from '../../engines/pkgscan/projects/files.js';
import { ruleMatches, SECRET_RULES } from '../../engines/pkgscan/containers/secrets.js';
import { APT_CACHE_MOUNT, APT_GET_INSTALL, PIPE_TO_SHELL } from '../../engines/pkgscan/projects/dockerfile.js';
import { parseYaraOutput } from '../../engines/pkgscan/tools/yara.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const REWRITES: readonly { where: string; old: RegExp; now: RegExp; alphabet: string; prefixes: readonly string[] }[] = [
  { where: 'core/ml/dataset.ts parseNumericCell', old: /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, now: /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/, alphabet: '0123.eE+-x ', prefixes: [''] },
  { where: 'core/manifests/declared.ts poetrySpecKind', old: /^\d+(\.\d+)*([a-z0-9.+-]*)$/i, now: /^\d[a-z0-9.+-]*$/i, alphabet: '01.aZ+-* ', prefixes: ['', '1'] },
  { where: 'pkgscan detectors-text literalExecMode', old: /^[ugoa]*\+[rwxXst]*x[rwxXst]*$/, now: { test: (m: string): boolean => /^[ugoa]*\+[rwxXst]*$/.test(m) && m.slice(m.indexOf('+')).includes('x') } as RegExp, alphabet: 'ugo+rwxXs ', prefixes: ['', '+', 'u+'] },
  { where: 'pkgscan detectors-text chmod start', old: /^\s*\(?\s*['"`]?chmod\b/, now: /^\s*(?:\(\s*)?['"`]?chmod\b/, alphabet: ' \t(\'"`x', prefixes: ['', 'chmod', ' (chmod', '  "chmod'] },
  { where: 'core/findings.ts URL_LIKE', old: /^[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/?#]+\S*$/i, now: /^[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/?#]\S*$/i, alphabet: 'ab:/?# x.', prefixes: ['', 'http://', 'x+y://', 'a:/'] },
];

function runInChild(module: string, expr: string, text: string): { timedOut: boolean; status: number | null; stdout: string } {
  const script = `import * as m from '${module}';
import { readFileSync } from 'node:fs';
const text = readFileSync(0, 'utf8');
process.stdout.write(String(${expr}));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, input: text, encoding: 'utf8', timeout: 15_000 });
  return { timedOut: r.error !== undefined || r.signal !== null, status: r.status, stdout: r.stdout };
}

describe('rewritten patterns', () => {
  it('match what the old patterns matched', () => {
    let s = 5;
    const next = (): number => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s; };
    for (const r of REWRITES) {
      for (let i = 0; i < 50_000; i++) {
        let t = r.prefixes[next() % r.prefixes.length] as string;
        const n = next() % 10;
        for (let j = 0; j < n; j++) t += r.alphabet.charAt(next() % r.alphabet.length);
        if (r.old.test(t) !== r.now.test(t)) expect(r.now.test(t), `${r.where}: ${JSON.stringify(t)}`).toBe(r.old.test(t));
      }
    }
  });

  it('the call sites still answer as before', () => {
    expect(parseNumericCell('1.5e3')).toBe(1500);
    expect(parseNumericCell('-.5')).toBe(-0.5);
    expect(parseNumericCell('12.')).toBe(12);
    expect(normalizeIndicator('url', 'https://example.com/a?b')).toEqual({ value: 'https://example.com/a?b' });
    expect(normalizeIndicator('url', 'https:///a')).toHaveProperty('reason');
  });

  it('finish on the attack shapes', () => {
    const a = runInChild('./engines/core/ml/dataset.ts', 'String(m.parseNumericCell(text))', '1'.repeat(150_000) + 'x');
    expect(a.timedOut).toBe(false);
    expect(a.stdout).toBe('undefined');
    const b = runInChild('./engines/core/findings.ts', "'reason' in m.normalizeIndicator('url', text)", 'http://' + 'a'.repeat(150_000) + ' x');
    expect(b.timedOut).toBe(false);
    expect(b.stdout).toBe('true');
  }, 60_000);
});

describe('manifest line readers', () => {
  it('answer what the old patterns answered', () => {
    const OLD_KEY = /^\s*(name|version)\s*=\s*(.*)$/;
    const OLD_PEP508 = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/;
    let s = 23;
    const next = (): number => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s; };
    const pieces = [' ', '\t', '\r', '\n', '\u2028', 'name', 'version', '=', 'a', '.', '-', '[', ']', '@', ';', '>=1'];
    for (let i = 0; i < 80_000; i++) {
      let t = '';
      const n = next() % 9;
      for (let j = 0; j < n; j++) t += pieces[next() % pieces.length] as string;
      const k = OLD_KEY.exec(t);
      expect(keyLine(t), JSON.stringify(t)).toEqual(k === null ? undefined : [k[1], k[2]]);
      const p = OLD_PEP508.exec(t);
      expect(pep508Parts(t), JSON.stringify(t)).toEqual(p === null ? undefined : { rawName: p[1], rest: p[3] });
    }
  });

  it('finish on a long blank run before text that a lone \\r ends', () => {
    const blanks = ' '.repeat(200_000) + 'x\r';
    const a = runInChild('./engines/core/manifests/toml-blocks.ts', "String(m.keyLine('name =' + text))", blanks);
    expect(a.timedOut).toBe(false);
    expect(a.stdout).toBe('undefined');
    const b = runInChild('./engines/core/manifests/declared.ts', "String(m.parsePep508('a' + text))", blanks);
    expect(b.timedOut).toBe(false);
    expect(b.stdout).toBe('undefined');
  }, 60_000);
});

describe('pkgscan patterns that stop at the next start', () => {
  /** Texts of pieces and noise, from a seed. */
  function texts(pieces: readonly string[], seed: number, count: number): string[] {
    const next = mulberry32(seed);
    const pick = (xs: readonly string[]): string => xs[Math.floor(next() * xs.length)] as string;
    const noise = [' ', '\t', '\n', '\r', 'x', '-', '|', ';', '"', "'", '+'];
    return Array.from({ length: count }, () => {
      let t = '';
      const n = 1 + Math.floor(next() * 12);
      for (let j = 0; j < n; j++) t += next() < 0.25 ? pick(noise) : pick(pieces);
      return t;
    });
  }

  it('Dockerfile RUN checks answer what the patterns before answered', () => {
    const OLD_PIPE = [/\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b/, /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(python3?|perl|ruby|node)\b/];
    const OLD_APT = /\bapt-get\s+(-[^\s]+\s+)*install\b/;
    let pipes = 0;
    let apts = 0;
    for (const t of texts(['curl', 'wget', ' http://a/b', '| ', 'sh', 'bash', 'sudo ', 'python3', 'node', 'xcurl', '&', 'apt-get', ' install', '-y ', '-apt-get ', '-q', 'install'], 71, 60_000)) {
      const pipe = OLD_PIPE.some((re) => re.test(t));
      if (PIPE_TO_SHELL.test(t) !== pipe) expect(PIPE_TO_SHELL.test(t), JSON.stringify(t)).toBe(pipe);
      if (APT_GET_INSTALL.test(t) !== OLD_APT.test(t)) expect(APT_GET_INSTALL.test(t), JSON.stringify(t)).toBe(OLD_APT.test(t));
      if (pipe) pipes++;
      if (OLD_APT.test(t)) apts++;
    }
    expect(pipes).toBeGreaterThan(100);
    expect(apts).toBeGreaterThan(100);
  });

  it('shell chmod finds the same modes, targets and match ends as before', () => {
    const OLD = /\bchmod\s+(?:-\w+\s+)*([ugoa]*\+[rwxXst]*x[rwxXst]*|[0-7]{3,4})\s+(?:['"`]\s*\+\s*([\w$.]+)|\$\{([^}]{1,200})\}|"?([^\s;&|'"`)]+))/g;
    const shape = (re: RegExp, t: string): string => JSON.stringify([...t.matchAll(re)].map((m) => [m.index + m[0].length, m[1], m[2], m[3], m[4]]));
    let hits = 0;
    for (const t of texts(['chmod', ' ', '-R ', '-chmod ', '-v', '+x', 'u+', 'x', 'rwx', 'X', '755', '0755', ' tool', '${dest}', "' + dest", '"$BIN"'], 73, 60_000)) {
      const was = shape(OLD, t);
      if (shape(SHELL_CHMOD, t) !== was) expect(shape(SHELL_CHMOD, t), JSON.stringify(t)).toBe(was);
      if (was !== '[]') hits++;
    }
    expect(hits).toBeGreaterThan(150);
    // A chain of `-chmod` flags: the match now starts at the last `chmod` of the chain; mode, target and end are the same.
    expect([...'chmod -chmod +x f'.matchAll(SHELL_CHMOD)].map((m) => [m.index, m[1], m[4]])).toEqual([[7, '+x', 'f']]);
  });

  it('names, hints and requirement heads answer what the patterns before answered', () => {
    const OLD_MOUNT = /--mount=type=cache[^\s]*\/var\/lib\/apt/;
    const OLD_NAME = /(^|[-_.])(requirements|constraints|reqs)([-_.][^/]*)?\.(txt|in)$/i;
    const OLD_HINT = /\beval\b|\bFunction\b|runIn\w*Context|compileFunction|\bScript\b/;
    const OLD_HEAD = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)$/;
    const counts = [0, 0, 0, 0];
    const pieces = ['--mount=type=cache', ',target=', '/var/lib/apt', '/var/lib', 'requirements', 'constraints', 'reqs', 'dev-', '.txt', '.in', '.TXT', '/', '_', '.', 'runIn', 'This', 'Context', 'eval', 'Script', 'x', 'req', 'flask', '>=1.0', ' ; ', 'A.b-c'];
    for (const t of texts(pieces, 79, 80_000)) {
      const checks: [RegExp, RegExp][] = [[OLD_MOUNT, APT_CACHE_MOUNT], [OLD_NAME, REQUIREMENTS_NAME], [OLD_HINT, EVAL_SINK_HINT]];
      checks.forEach(([old, now], i) => {
        if (now.test(t) !== old.test(t)) expect(now.test(t), `${now.source}: ${JSON.stringify(t)}`).toBe(old.test(t));
        if (old.test(t)) counts[i] = (counts[i] as number) + 1;
      });
      const was = OLD_HEAD.exec(t);
      expect(REQUIREMENT_HEAD.exec(t)?.slice(1), JSON.stringify(t)).toEqual(was?.slice(1));
      if (was !== null) counts[3] = (counts[3] as number) + 1;
    }
    for (const c of counts) expect(c).toBeGreaterThan(150);
  });

  it('secrets tried from the first start of each run: the matches of the regex alone', () => {
    const A = 'abcdefghij0123456789';
    const pieces = ['sk-', 'T3BlbkFJ', 'eyJ', '.', A, A, 'x', '_-', ' ', '/', 'sksk-', 'eyJeyJ', `sk-${A}T3BlbkFJ${A}`, `eyJ${A}.eyJ${A}.${A}`];
    for (const id of ['openai-api-key', 'jwt-token']) {
      const rule = SECRET_RULES.find((r) => r.id === id);
      if (rule?.firstOfRun === undefined) throw new Error(`${id} is tried from every start`);
      const shape = (ms: Iterable<RegExpMatchArray>): string => JSON.stringify([...ms].map((m) => [m.index, m.groups?.['secret']]));
      let hits = 0;
      for (const t of texts(pieces, 89, 40_000)) {
        const was = shape(t.matchAll(new RegExp(rule.regex.source, 'g')));
        const now = shape(ruleMatches(t, rule));
        if (now !== was) expect(now, `${id}: ${JSON.stringify(t)}`).toBe(was);
        if (was !== '[]') hits++;
      }
      expect(hits, id).toBeGreaterThan(1000);
    }
  });

  it('yara output lines with a line terminator are skipped, as neither pattern matched them', () => {
    const out = ['r1 [a="b",n=2] /p/a', 'r2 [a="b"] /p/\rq', 'r3 /p/c', 'r4 [x] \u2028', '0x1:$a: data'].join('\n');
    expect(parseYaraOutput(out).map((m) => [m.rule, m.target, m.meta])).toEqual([['r1', '/p/a', { a: 'b', n: '2' }], ['r3', '/p/c', {}]]);
  });
});

describe('rule patterns over evidence', () => {
  // Each input made old code backtrack for minutes or longer (exponential, cubic or quartic); the new code reads it at once.
  const CASES: readonly { module: string; expr: string; text: string; expected: string }[] = [
    // replay: a run of SQL comments after UNION that never reaches SELECT (the `.*?` comments split it exponentially)
    { module: './engines/replay/detect/web.ts', expr: 'm.hasSqlInjection(text)', text: `/q?id=1 union ${'/**/'.repeat(200)}x`, expected: 'false' },
    { module: './engines/replay/detect/web.ts', expr: 'm.hasSqlInjection(text)', text: `/q?id='+or${'+'.repeat(300_000)}!`, expected: 'false' },
    // pkgscan: a long run of names and white space before a statement's last `:`
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: 'm.assignedName(text)', text: `${'$'.repeat(50_000)}:${'\t'.repeat(50_000)}$:`, expected: '$' },
    // pkgscan: white space after iex
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.fetchPipeRun({ code: text, path: 'a.ps1' }).length", text: `iex${' '.repeat(50_000)}!`, expected: '0' },
    // pkgscan: a decoding helper's body line of tabs with no line end, and unclosed parameter lists
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.pyExecDecoded({ code: text, path: 'a.py' }).length", text: `def e():\n${'\t'.repeat(300_000)}`, expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.pyExecDecoded({ code: text, path: 'a.py' }).length", text: 'def\ne(\n'.repeat(200_000), expected: '0' },
    // pkgscan: a long rm flag cluster in a RUN that installs with apt-get
    { module: './engines/pkgscan/projects/dockerfile.ts', expr: "m.lintDockerfile('Dockerfile', text).some((f) => f.code === 'dockerfile_apt_lists_kept')", text: `FROM debian:12\nRUN apt-get install -y --no-install-recommends x && rm -${'rf'.repeat(20_000)} ${'x'.repeat(20_000)}\n`, expected: 'true' },
    // forensic: separators, then names, in an image path that does not end in .exe
    { module: './engines/forensic/analysis/patterns.ts', expr: 'm.techniquesOfCommand(null, text).has("T1486")', text: `A${'/'.repeat(3_000)}${'CRYPT'.repeat(3_000)}\t/CRYPT.EXEx`, expected: 'false' },
    // forensic: command lines of one tool name and flag repeated (`.*` after each start, a flag walk from each name inside a flag)
    { module: './engines/forensic/analysis/patterns.ts', expr: "text.split('\\u0000').map((t) => [...m.techniquesOfCommand(t, null).keys()].join('+')).join()", text: ['rclone copy ', 'procdump -ma ', 'scp -', 'rm -', 'nc -', 'curl -', 'touch -', 'usermod -', 'shred -', 'truncate -', 'reg add ', 'powershell -x '].map((t) => `${t.repeat(Math.ceil(100_000 / t.length))}!`).join('\u0000'), expected: 'T1048,,,,,,,,,,,' },
    // forensic: a service image path of one long run without `.exe`
    { module: './engines/forensic/analysis/patterns.ts', expr: "m.exeNameIn(text) ?? 'none'", text: `"${'a'.repeat(300_000)}" x.exe`, expected: 'x.exe' },
    // forensic auth.log: a sudo line of `; USER=` parts ending in a line terminator (the lazy PWD tried each part, then
    // the command to the terminator), an su line of colons, pam failures without rhost=, a program of `(` before a line break
    { module: './engines/forensic/loaders/authlog.ts', expr: "String(m.classifyAuthMessage('sudo', text, 'h'))", text: `W : TTY=: ; PWD=${' ; USER=D ; COMMAND=a'.repeat(50_000)}\n`, expected: 'null' },
    { module: './engines/forensic/loaders/authlog.ts', expr: "String(m.classifyAuthMessage('su', text, 'h'))", text: `+ + ${'\u0000:'.repeat(200_000)}\u0000 +:\u0000`, expected: 'null' },
    { module: './engines/forensic/loaders/authlog.ts', expr: "String(m.classifyAuthMessage('sshd', text, 'h'))", text: 'authentication failure;'.repeat(40_000), expected: 'null' },
    { module: './engines/forensic/loaders/authlog.ts', expr: "m.classifyAuthMessage(text, 'session closed for user bob', 'h').attributes.service.length", text: `${'('.repeat(400_000)}\n)`, expected: '400002' },
    // forensic rules: autorun keys, dump names and cron jobs of one part repeated (each read to the end from every start)
    { module: './engines/forensic/analysis/rules.ts', expr: "text.split('\\u0000').map((t, i) => (i < 2 ? m.AUTORUN : i < 4 ? m.LSASS_DUMP : m.SUSPICIOUS_JOB).test(t)).join()", text: ['\\Image File Execution Options\\', '\\Image File Execution Options\\\\Debugger', 'lsass', 'lsass.dmp', 'nc -', 'curl |', 'wget |', 'python -c '].map((t) => `${t.repeat(Math.ceil(300_000 / t.length))}\n`).join('\u0000'), expected: 'false,false,false,false,false,false,false,false' },
    // forensic Sigma: an address value of `%` before a line break (the zone index cut from each `%` to the break)
    { module: './engines/forensic/sigma/value.ts', expr: 'String(m.parseIp(text))', text: `1${'%'.repeat(300_000)}\n`, expected: 'null' },
    // forensic Sigma: a value with three `*` over a run of its literal that never ends in the tail (the `u` expression
    // tried every split: 8,000 characters took 75 s), and two around a repeated path part
    { module: './engines/forensic/sigma/value.ts', expr: "[m.patternTest([{ any: true }, 'a', { any: true }, 'a', { any: true }, 'b'], true)(text), m.patternTest([{ any: true }, '\\\\appdata\\\\', { any: true }, '.exe'], false)('\\\\appdata\\\\'.repeat(100_000))].join()", text: 'a'.repeat(300_000), expected: 'false,false' },
    // forensic Sigma: a case-insensitive `re` value with four `.*` gaps (a shipped rule's) over a value of its words
    // repeated to the 16,384 characters values are clipped to: with `i` V8's linear fallback does not apply (16 s);
    // folded into classes it does
    { module: './engines/forensic/sigma/value.ts', expr: "((await import('./engines/core/regexp-guard.ts')).guardRegExpBacktracking(), m.regexTest(m.compileRegex('(?i)(?:set).*&&\\\\s?set.*(?:environment|invoke|\\\\$\\\\{?input).*&&.*\"', ''))(text))", text: `set&&set${'invoke&&'.repeat(2_047)}`, expected: 'false' },
    // pkgscan: Dockerfile RUN lines of `curl`/`wget` and `apt-get -` repeated, shell chmod flag chains and `x` runs, a
    // yara target path holding `\r` after many `] `
    { module: './engines/pkgscan/projects/dockerfile.ts', expr: "[m.PIPE_TO_SHELL.test(text), m.APT_GET_INSTALL.test(text.replace(/thon\\twget\\t/g, 'apt-get\\t-'))].join()", text: `${'thon\twget\t'.repeat(40_000)}thon&`, expected: 'false,false' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "[text.split('\\u0000').map((t) => [...t.matchAll(m.SHELL_CHMOD)].length)].join()", text: [`${'chmod -'.repeat(60_000)}!`, `chmod\t+X${'x'.repeat(300_000)}\u0001`].join('\u0000'), expected: '0,0' },
    { module: './engines/pkgscan/tools/yara.ts', expr: 'm.parseYaraOutput(text).length', text: `r [${'] '.repeat(200_000)}\r`, expected: '0' },
    // pkgscan: a cache mount, requirements file name, run-in-context hint and requirement of one part repeated
    { module: './engines/pkgscan/projects/dockerfile.ts', expr: 'm.APT_CACHE_MOUNT.test(text)', text: `${'--mount=type=cache'.repeat(60_000)} /var/lib/apt`, expected: 'false' },
    { module: './engines/pkgscan/projects/files.ts', expr: 'm.REQUIREMENTS_NAME.test(text)', text: `${'requirements-'.repeat(50_000)}/x.txt`, expected: 'false' },
    { module: './engines/pkgscan/analyzers/source/detectors.ts', expr: 'm.EVAL_SINK_HINT.test(text)', text: 'runIn'.repeat(80_000), expected: 'false' },
    { module: './engines/pkgscan/package/metadata.ts', expr: 'String(m.REQUIREMENT_HEAD.exec(text))', text: `${'a'.repeat(300_000)} x\n`, expected: 'null' },
    // pkgscan: a setup.py of install-command class heads, or of run heads, without a close (each read to the end from
    // every head before it, and the rest of the file split once per class)
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "text.split('\\u0000').map((code) => m.pyCmdclassInstall({ code, ast: null, path: 'setup.py' }).length).join()", text: [`cmdclass\n${'class A(install\n'.repeat(100_000)}`, `cmdclass\nclass A(install):\n${'    def run(self\n'.repeat(100_000)}`].join('\u0000'), expected: '0,0' },
    // pkgscan: calls that run code, read to the first `)` from each of a run of builtins lookups, a line of `import`
    // heads (each read to the line's end for a decoder imported under another name), a long word of `Resolver` (each
    // tried with the rest of the word after it), a resolver's name of `%s.a` repeated (the rest read from each `%s`),
    // a chmod target's assignments looked for across a long run of blanks (read again from each blank), and unclosed calls
    // whose 8,000-character arguments were each read and searched; lookups that gathered the same long assignments
    // again for each call; command strings whose name was looked for in every process call again for each string
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.pyExecDecoded({ code: text, path: 'a.py' }).length", text: 'getattr(__builtins__ '.repeat(50_000), expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "text.split('\\u0000').map((t) => [...t.matchAll(m.IMPORT_AS)].length).join()", text: ['import '.repeat(200_000), `import${'\t'.repeat(300_000)}`].join('\u0000'), expected: '0,0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: '[...text.matchAll(m.PY_RESOLVER_CALL)].length', text: `${'Resolver'.repeat(100_000)}.x`, expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: 'm.builtDomain(text)', text: '%s.a'.repeat(100_000), expected: 'false' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.chmodThenRun({ code: text, path: 'a.py' }).length", text: `os.chmod(dest, 0o755)\n${' '.repeat(300_000)}\nsubprocess.run([dest])\n`, expected: '1' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.pyExecDecoded({ code: text, path: 'a.py' }).length", text: 'exec('.repeat(800_000), expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.lookupOfData({ code: text, path: 'a.js' }).length", text: 'system("ping %s'.repeat(150_000), expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.lookupOfData({ code: text, path: 'a.py' }).length", text: `${`name = "${'a'.repeat(1990)}"\n`.repeat(256)}${'os.system("nslookup %s.example.com" % name)\n'.repeat(12_000)}`, expected: '0' },
    { module: './engines/pkgscan/analyzers/source/detectors-text.ts', expr: "m.fetchPipeRun({ code: text, path: 'a.js' }).length", text: `${'const a1 = "curl http://x | sh";\n'.repeat(30_000)}${'exec(b);\n'.repeat(100_000)}`, expected: '0' },
    // pkgscan: a mirror's index page of `<a ` heads without a `>` (each read to the end), then of heads before one `>`
    // and a long text without a `<`
    { module: './engines/pkgscan/sources/pypi-mirror.ts', expr: "text.split('\\u0000').map((t) => m.anchors(t).length).join()", text: ['<a '.repeat(200_000), `${'<a '.repeat(100_000)}>${'x'.repeat(300_000)}`].join('\u0000'), expected: '0,0' },
    // pkgscan: a container file of private-key BEGIN lines without an END line (each read the key text to the end)
    { module: './engines/pkgscan/containers/secrets.ts', expr: 'm.findSecrets(text).length', text: '-----BEGIN PRIVATE KEY-----'.repeat(40_000), expected: '0' },
    // pkgscan: container files of `sk-` or `eyJ` repeated (the regex read the run to its end from each start)
    { module: './engines/pkgscan/containers/secrets.ts', expr: 'm.findSecrets(text).length', text: `${'sk-'.repeat(100_000)} ${'eyJ'.repeat(100_000)} T3BlbkFJ`, expected: '0' },
    // pkgscan rule files: the request-catcher and tunnel host rules over a long dotted run (`[\w.-]*\.` from each start)
    { module: './engines/pkgscan/analyzers/source/rules.ts', expr: "m.loadRules('resources').filter((r) => r.id === 'oast_host' || r.id === 'tunnel_host').flatMap((r) => r.patterns).map((p) => text.match(new RegExp(p.source, p.flags))?.length ?? 0).join()", text: `${'a.'.repeat(200_000)}x`, expected: '0,0,0' },
    // caseassess: a description of one place name repeated (each match compared with every match kept before it)
    { module: './engines/caseassess/vocabulary.ts', expr: 'm.findPlaces(text).length', text: 'Russia '.repeat(300_000), expected: '1' },
    // attrib: a URL in a report followed by a long run of punctuation (the trim matched and counted again per character)
    { module: './engines/attrib/extract/indicators.ts', expr: 'm.extractIndicators(text).length', text: `see http://a.example/${'.'.repeat(400_000)} now`, expected: '0' },
    // renderer: a URL and a path of trailing punctuation not at their end (Send to's indicators)
    { module: './renderer/src/components/SendToModel.ts', expr: 'm.indicatorsInText(text).map((x) => x.type).join()', text: `see http://a/${'!'.repeat(99_000)}x`, expected: 'url' },
    { module: './renderer/src/components/SendToModel.ts', expr: 'm.indicatorsInText(text).map((x) => x.type).join()', text: `C:\\x\\${'.'.repeat(99_000)}y z`, expected: 'file_path' },
    // main: a usage-table row of options with no gap before a description (the row pattern split it exponentially)
    { module: './main/console/commands.ts', expr: "m.parseHelp('tool', text).options.length", text: `tool 1.0: t\n --a,${'\t--o--o,'.repeat(40)}\t\u0000`, expected: '2' },
  ];

  it.each(CASES.map((c, i) => [i, c] as const))('finish on attack shape %i', (_i, c) => {
    const r = runInChild(c.module, c.expr, c.text);
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe(c.expected);
  }, 60_000);
});
