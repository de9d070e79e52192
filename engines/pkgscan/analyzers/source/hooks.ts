// Install-time execution: what an npm install hook runs (a native-addon build is ordinary, a shell download is not), and which package files run at install (hook targets and the makefiles and shell scripts they run, setup.py, in-tree build backends, Hatch hooks, cffi build scripts, .pth files, the local files they load, the makefiles and configure scripts setup.py runs, and CMake, Meson and build.rs files).
import path from 'node:path/posix';
import { parse as parseToml } from 'smol-toml';
import type { PackageRelease, ReleaseFile } from '../../package/types.js';
import { INSTALL_HOOKS } from '../../vocabulary.js';
import { isRecord, LineIndex } from '../../../core/manifests/context.js';
import { runsAtBuild } from './text.js';

/** Commands that build or set up a package the ordinary way (native addons, git hooks, patches, funding notices). */
// Each pattern reads a command one way only (an option is `-` and option characters; no alternative spells what two
// others do together), so a hostile hook of many options fails in linear time rather than by exponential backtracking.
const ORDINARY = [
  /^node-gyp(?:-build)?(?:\s+(?:rebuild|configure|build))*(?:\s+-[\w=-]+)*$/,
  /^node-gyp-build(?:-optional)?(?:\s+\S+)*$/,
  /^prebuild-install(?:\s+-[\w=.-]+|\s+\w+)*$/,
  /^(?:node-pre-gyp|@mapbox\/node-pre-gyp|cmake-js|napi-build|node-pre-gyp-github)\b/,
  /^(?:node\s+)?husky(?:\s+install)?(?:\s+[\w./-]+)?$/,
  /^patch-package\b/,
  /^opencollective(?:-postinstall)?\b/,
  /^(?:echo|true|exit(?:\s+0)?|:|is-ci|ngcc|tsc|node-gyp-build-test)\b/,
  /^(?:npm|yarn|pnpm)\s+run\s+[\w:-]+$/,
  /^(?:electron-rebuild|electron-builder\s+install-app-deps)\b/,
];

export interface HookCommand {
  readonly hook: string;
  readonly command: string;
  /** 1-based line of the script in package.json, when found. */
  readonly line: number | null;
  /** Every part is an ordinary build/set-up step. */
  readonly ordinary: boolean;
  /** Package files the hook starts with `node FILE` (resolved, may be absent from the package). */
  readonly targets: readonly string[];
  /** Inline code of `node -e "..."`. */
  readonly inline: readonly string[];
  /** Some part is neither an ordinary step nor `node FILE` / `node -e` (a shell command of its own). */
  readonly shell: boolean;
  /** The file the command is written in: package.json, or a gyp file of the native build. */
  readonly file: string;
}

function dequote(s: string): string {
  return s.replace(/^(['"])([\s\S]*)\1$/, '$2');
}

function resolveIn(files: ReadonlyMap<string, ReleaseFile>, from: string, spec: string): string | null {
  const base = path.normalize(path.join(from, spec)).replace(/^\.\//, '');
  for (const c of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}/index.js`, `${base}/index.cjs`]) if (files.has(c)) return c;
  return null;
}

/** npm's entry module: `main`, else node's default (a damaged package.json too). */
function packageMain(release: PackageRelease): string {
  const main = packageJson(release)['main'];
  return typeof main === 'string' && main !== '' ? main : 'index.js';
}

/** Steps a native build's own commands (binding.gyp's command expansions and actions) take the ordinary way: compiler
 * and library queries, Node code that loads no package file, and the package's own generator scripts run by an
 * interpreter (those files and that code are read as install-time code). */
// (library and system queries and the text tools their output goes through: `pkg-config cairo --cflags-only-I | sed
// s/-I//g`, `ldd --version 2>&1 | head -n1 | grep musl`, `krb5-config gssapi --libs`)
const GYP_ORDINARY = /^(?:pkg-config|[\w.+-]+[-_]config|uname|xcrun|xcode-select|getconf|nproc|ldd|sysctl|lsb_release|arch|which|command\s+-v|brew\s+--prefix|sed|grep|egrep|head|tail|wc|tr|cut|sort|uniq|ls|cat|dirname|basename|test|\[)(?:\s|$)/;
/** Inline Node code that loads no package file (`node -p "require('node-addon-api').include"`, `node -p "process.versions.node"`): its code is still read as install-time code. */
const PACKAGE_FILE_REQUIRE = /\brequire\s*\(\s*\\?['"`]\.{1,2}(?:\/|\\?['"`])/;

interface HookContext {
  readonly release: PackageRelease;
  readonly files: ReadonlyMap<string, ReleaseFile>;
  /** The command is one of binding.gyp's (run by node-gyp at install), not a package.json script. */
  readonly gyp: boolean;
}

/**
 * The parts of a shell command line, split on `&&`, `||`, `;`, `|` and `&` outside quotes (the code of
 * `node -e "a(); b()"` is one part; `2>&1` is not split), each trimmed. An unclosed quote runs to the end, as the shell would refuse it.
 */
export function commandParts(command: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command.charAt(i);
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '\\') i++;
    else if (c === '"' || c === "'") quote = c;
    // `2>&1` and `&>` are redirections, not operators
    else if (c === '&' && (command.charAt(i - 1) === '>' || command.charAt(i + 1) === '>')) continue;
    else if (c === ';' || c === '|' || c === '&') {
      parts.push(command.slice(start, i));
      if ((c === '|' || c === '&') && command.charAt(i + 1) === c) i++;
      start = i + 1;
    }
  }
  parts.push(command.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The package's shell script a command runs (`sh ./configure`, `./scripts/x.sh`), or the makefile its make reads. */
function scriptTargets(part: string, files: ReadonlyMap<string, ReleaseFile>): string[] {
  const make = /^g?make\b(.{0,300})/.exec(part);
  if (make !== null) {
    const args = make[1] ?? '';
    const dir = /\s-C\s*([\w./-]{1,200})/.exec(args)?.[1] ?? '';
    const named = /\s(?:-f|--file(?:=|\s))\s*([\w./-]{1,200})/.exec(args)?.[1];
    const candidates = named !== undefined ? [path.join(dir, named)] : ['GNUmakefile', 'makefile', 'Makefile'].map((m) => path.join(dir, m));
    return candidates.map((c) => path.normalize(c)).filter((c) => files.has(c));
  }
  const script = /^(?:(?:ba|da|z)?sh\s+(?:-\w+\s+)*)?(\.{0,2}\/?[\w.-]{1,100}(?:\/[\w.-]{1,100}){0,10})(?:\s|$)/.exec(part)?.[1];
  if (script === undefined || (!part.startsWith('.') && !/^(?:ba|da|z)?sh\s/.test(part))) return [];
  const target = path.normalize(script).replace(/^\.\//, '');
  return files.has(target) ? [target] : [];
}

/** One install-time command split into what it runs. */
function hookCommand(hook: string, command: string, line: number | null, { release, files, gyp }: HookContext, file: string): HookCommand {
  const parts = commandParts(command);
  const targets: string[] = [];
  const inline: string[] = [];
  let ordinary = parts.length > 0;
  let shell = false;
  for (const part of parts) {
    const inl = /^node\s+(?:-e|--eval|-p)\s+([\s\S]+)$/.exec(part);
    if (inl?.[1]) {
      const code = dequote(inl[1].trim());
      inline.push(code);
      // `node -e "require('./postinstall')"` runs that file at install
      // (`require('./')` and `require('.')` load the package's main)
      for (const m of code.matchAll(/\brequire\s*\(\s*\\?['"`](\.{1,2}(?:\/[^'"`\\]*)?)\\?['"`]\s*\)/g)) {
        const spec = m[1];
        const t = spec === undefined ? null : spec === '.' || spec === './' ? resolveIn(files, '', packageMain(release)) : resolveIn(files, '', spec);
        if (t !== null) targets.push(t);
      }
      if (!(gyp && !PACKAGE_FILE_REQUIRE.test(code))) ordinary = false;
      continue;
    }
    const node = /^(?:node|nodejs|forever\s+start|pm2\s+start|start\s+\/b\s+node)\s+(?:-[\w-]+\s+)*([^\s]+)/i.exec(part);
    if (node?.[1]) {
      const spec = dequote(node[1]);
      const target = spec === '.' || spec === './' ? resolveIn(files, '', packageMain(release)) : resolveIn(files, '', spec);
      if (target !== null) targets.push(target);
      // `node install.js` of a native-addon build (a binding.gyp beside it) is the ordinary addon build
      if (!files.has('binding.gyp')) ordinary = false;
      continue;
    }
    const script = gyp ? /^python[\d.]*\s+(?:-[\w-]+\s+)*([\w./-]+\.py)\b/.exec(part) : null;
    if (script?.[1] !== undefined) {
      // a generator script of the package (its code is read as install-time code); a script the package lacks is the build's own
      const target = resolveIn(files, path.dirname(file), dequote(script[1]));
      if (target !== null) targets.push(target);
      continue;
    }
    // a shell script of the package (`sh ./configure`, `bash scripts/setup.sh`, `./configure`) and the makefile make
    // reads (`make -f build.mk`, `make -C native`) run at install: their commands are read as install-time shell
    for (const t of scriptTargets(part, files)) if (!targets.includes(t)) targets.push(t);
    if (!ORDINARY.some((re) => re.test(part)) && !(gyp && GYP_ORDINARY.test(part))) {
      ordinary = false;
      shell = true;
    }
  }
  return { hook, command, line, ordinary, targets, inline, shell, file };
}

/**
 * The package files npm's `prepare` script starts (`node FILE`): it runs when the package is installed from its
 * source (a git URL or a folder), so those files are not set aside as tests even under a test folder.
 */
export function prepareTargets(release: PackageRelease): string[] {
  const command = release.metadata.scripts['prepare'];
  if (command === undefined || command.trim() === '') return [];
  const files = new Map(release.files.map((f) => [f.path, f]));
  return [...hookCommand('prepare', command, null, { release, files, gyp: false }, 'package.json').targets];
}

/** The install hooks of an npm release, each split into what it runs; binding.gyp's commands too, since npm builds it at install. */
export function npmHooks(release: PackageRelease): HookCommand[] {
  const files = new Map(release.files.map((f) => [f.path, f]));
  const textOf = (p: string): string => {
    const f = files.get(p);
    return f?.data && f.data.length <= MAX_GYP_BYTES ? Buffer.from(f.data).toString('utf8') : '';
  };
  const pjText = textOf('package.json');
  const out: HookCommand[] = [];
  for (const hook of INSTALL_HOOKS) {
    const command = release.metadata.scripts[hook];
    if (command === undefined || command.trim() === '') continue;
    const at = pjText.search(new RegExp(`"${hook}"\\s*:`));
    const line = at === -1 ? null : pjText.slice(0, at).split('\n').length;
    out.push(hookCommand(hook, command, line, { release, files, gyp: false }, 'package.json'));
  }
  // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own, and a declared
  // `node-gyp rebuild` runs the same file: its command expansions and actions run at install either way
  const gypFiles = ['binding.gyp'];
  for (let i = 0; i < gypFiles.length && i < 10; i++) {
    const file = gypFiles[i] ?? '';
    const text = textOf(file);
    if (text === '') continue;
    for (const inc of gypIncludes(text)) {
      const r = resolveIn(files, path.dirname(file), inc);
      if (r !== null && !gypFiles.includes(r)) gypFiles.push(r);
    }
    for (const c of gypCommands(text)) out.push(hookCommand(file, c.command, c.line, { release, files, gyp: true }, file));
  }
  return out;
}

/** Largest package.json or gyp file read for commands. */
const MAX_GYP_BYTES = 1024 * 1024;
/** Most commands read from one gyp file. */
const MAX_GYP_COMMANDS = 100;

/** A string literal of a gyp file: its value, where its opening quote is and where it ends (after the closing quote). */
interface GypString { value: string; offset: number; end: number }

/** The string literals of a gyp file (a Python literal: single or double quotes, `#` comments), each with its offset. */
function gypStrings(text: string): GypString[] {
  const out: GypString[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '#') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
    } else if (c === '"' || c === "'") {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text.charAt(j) !== c && text.charAt(j) !== '\n'; j++) {
        if (text.charAt(j) === '\\' && j + 1 < text.length) j++;
        value += text.charAt(j);
      }
      out.push({ value, offset: i, end: j + 1 });
      i = j;
    }
  }
  return out;
}

/** The files a gyp file includes (`'includes': ['common.gypi']`). */
function gypIncludes(text: string): string[] {
  const at = text.search(/['"]includes['"]\s*:\s*\[/);
  if (at < 0) return [];
  const end = text.indexOf(']', at);
  return gypStrings(text.slice(at, end < 0 ? text.length : end)).slice(1).map((s) => s.value).filter((v) => /\.gypi?$/.test(v)).slice(0, 10);
}

/** What a gyp file runs: command expansions (`<!(cmd)`, `<!@(cmd)`, their `>` and `^` forms, a list form joined) and `action` lists (joined). */
export function gypCommands(text: string): { command: string; line: number }[] {
  const index = new LineIndex(text);
  const strings = gypStrings(text);
  const vars = gypVariables(text, strings);
  const out: { command: string; line: number }[] = [];
  const push = (command: string, line: number): void => {
    out.push({ command: expandGypVariables(command, vars), line });
  };
  for (let k = 0; k < strings.length && out.length < MAX_GYP_COMMANDS; k++) {
    const { value, offset } = strings[k] ?? { value: '', offset: 0 };
    for (let at = value.search(/[<>^]!@?\(/); at >= 0 && out.length < MAX_GYP_COMMANDS; ) {
      const open = value.indexOf('(', at);
      let depth = 0;
      let close = -1;
      for (let j = open; j < value.length; j++) {
        if (value.charAt(j) === '(') depth++;
        else if (value.charAt(j) === ')' && --depth === 0) {
          close = j;
          break;
        }
      }
      const inner = (close < 0 ? value.slice(open + 1) : value.slice(open + 1, close)).trim();
      const command = inner.startsWith('[') ? gypStrings(inner).map((s) => s.value).join(' ') : inner;
      if (command !== '') push(command, index.lineOf(offset) + 1);
      const next = close < 0 ? -1 : value.slice(close + 1).search(/[<>^]!@?\(/);
      at = next < 0 ? -1 : close + 1 + next;
    }
    if (value === 'action' && /^\s*:\s*\[/.test(text.slice(offset + value.length + 2, offset + value.length + 40))) {
      const listEnd = text.indexOf(']', offset);
      const items = strings.slice(k + 1).filter((s) => listEnd < 0 || s.offset < listEnd);
      // `<(python)` and the like name the interpreter through a variable
      const command = items.map((s) => s.value.replace(/^[<>^]\((\w+)\)$/, '$1')).join(' ');
      if (command.trim() !== '') push(command, index.lineOf(offset) + 1);
    }
  }
  return out;
}

/** The most variables read from one gyp file. */
const MAX_GYP_VARIABLES = 500;

/** A gyp file's string-valued settings (`'cfg_host': 'x.example'`, `'lz4_dir%': 'deps/lz4'`), by name: the variables its commands name as `<(cfg_host)`. */
function gypVariables(text: string, strings: readonly GypString[]): ReadonlyMap<string, string> {
  const vars = new Map<string, string>();
  for (let k = 0; k + 1 < strings.length && vars.size < MAX_GYP_VARIABLES; k++) {
    const key = strings[k]!;
    const value = strings[k + 1]!;
    if (!/^\s*:\s*$/.test(text.slice(key.end, value.offset))) continue;
    const name = key.value.replace(/%$/, '');
    if (/^[A-Za-z_]\w{0,60}$/.test(name) && !vars.has(name)) vars.set(name, value.value);
  }
  return vars;
}

/** A command with the variables it names written as their values (`<(cfg_get)`, `<@(flags)`, `>(x)`), three levels deep; unknown ones stay. */
function expandGypVariables(command: string, vars: ReadonlyMap<string, string>): string {
  let out = command;
  for (let depth = 0; depth < 3 && /[<>]@?\(\w/.test(out); depth++) {
    const next = out.replace(/[<>]@?\((\w{1,60})\)/g, (whole, name: string) => vars.get(name) ?? whole);
    if (next === out) break;
    out = next.length > 8192 ? next.slice(0, 8192) : next;
  }
  return out;
}

const LOCAL_JS = /\brequire\s*\(\s*['"`](\.{1,2}(?:\/[^'"`]*)?)['"`]\s*\)|\bimport\s*(?:[^'"`;]{0,300}?\sfrom\s*)?['"`](\.{1,2}\/[^'"`]+)['"`]/g;
const LOCAL_PY = /^[ \t]*(?:from\s+\.?([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*))/gm;

/** The package files a JavaScript file's relative requires and imports resolve to. */
function jsRequired(files: ReadonlyMap<string, ReleaseFile>, file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(LOCAL_JS)) {
    const spec = m[1] ?? m[2];
    const r = spec === undefined ? null : resolveIn(files, path.dirname(file), spec);
    if (r !== null) found.push(r);
  }
  return found;
}

/**
 * The package's own files a Python build runs (pip builds an sdist to install it): an in-tree build backend
 * (`build-backend = "backend"` with `backend-path = ["_build"]` gives `_build/backend.py`) and Hatch's build and
 * metadata hooks (`[tool.hatch.build.hooks.custom]`, per target too, whose `path` is `hatch_build.py` unless given).
 */
export function pythonBuildHooks(files: ReadonlyMap<string, ReleaseFile>): string[] {
  const data = files.get('pyproject.toml')?.data;
  if (!data || data.length > 1024 * 1024) return [];
  let doc: unknown;
  try {
    doc = parseToml(Buffer.from(data).toString('utf8'));
  } catch {
    return [];
  }
  if (!isRecord(doc)) return [];
  const out: string[] = [];
  const add = (p: string): void => {
    const rel = path.normalize(p).replace(/^\.\//, '');
    if (files.has(rel) && !out.includes(rel)) out.push(rel);
  };
  const build = isRecord(doc['build-system']) ? doc['build-system'] : {};
  const backend = typeof build['build-backend'] === 'string' ? build['build-backend'].split(':')[0]?.trim() ?? '' : '';
  const dirs = Array.isArray(build['backend-path']) ? build['backend-path'].filter((d): d is string => typeof d === 'string') : [];
  if (/^[\w.]+$/.test(backend)) {
    const mod = backend.replace(/\./g, '/');
    for (const d of dirs) for (const c of [`${d}/${mod}.py`, `${d}/${mod}/__init__.py`]) add(c);
  }
  const tool = isRecord(doc['tool']) ? doc['tool'] : {};
  const hatch = isRecord(tool['hatch']) ? tool['hatch'] : {};
  const hatchBuild = isRecord(hatch['build']) ? hatch['build'] : {};
  const targets = isRecord(hatchBuild['targets']) ? Object.values(hatchBuild['targets']) : [];
  const hookTables = [hatchBuild['hooks'], isRecord(hatch['metadata']) ? hatch['metadata']['hooks'] : undefined, ...targets.map((t) => (isRecord(t) ? t['hooks'] : undefined))];
  for (const hooks of hookTables) {
    if (!isRecord(hooks) || !isRecord(hooks['custom'])) continue;
    const p = hooks['custom']['path'];
    add(typeof p === 'string' ? p : 'hatch_build.py');
  }
  return out;
}

/** A call that puts a folder on the import path; its folder is the line's last literal (sysPathDirs). */
const SYS_PATH_CALL = /\bsys\.path\.(?:insert|append)\s*\(/g;
const PATH_LITERAL = /['"]([\w.-]{1,80}(?:\/[\w.-]{1,80}){0,3}\/?)['"]/g;

/** The release's folders a script puts on the import path: the last literal of each `sys.path.insert(...)`/`append(...)` line. */
function sysPathDirs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SYS_PATH_CALL)) {
    const eol = text.indexOf('\n', m.index);
    const last = [...text.slice(m.index + m[0].length, Math.min(eol === -1 ? text.length : eol, m.index + 300)).matchAll(PATH_LITERAL)].pop();
    if (last?.[1] !== undefined && out.length < 10) out.push(`${path.normalize(last[1]).replace(/^\.\//, '').replace(/\/$/, '')}/`);
  }
  return out;
}

/**
 * A module Python's site imports at every interpreter start: at the top of the release's tree (or of its `src/`), or
 * where a wheel's `.data` folders install it into site-packages (`purelib/`, `platlib/`, or `data/` under the
 * environment's root: `data/Lib/site-packages/`, `data/lib/python3.12/site-packages/`).
 */
const STARTUP_MODULE = /^(?:src\/|[^/]+\.data\/(?:purelib|platlib)\/|[^/]+\.data\/data\/(?:Lib|lib\/python[\d.]+)\/site-packages\/)?(?:sitecustomize|usercustomize)\.py$/;

/** A build script named after cffi_modules in setup.py or setup.cfg (`"build_ffi.py:ffibuilder"`). */
const CFFI_MODULE = /['"\s=]([\w./-]{1,200}\.py):[A-Za-z_]\w{0,60}/g;

/**
 * Package files that run at install: npm hook targets and the local files they require (3 levels); for PyPI setup.py,
 * an in-tree build backend, Hatch hooks, cffi build scripts, .pth files and a top-level sitecustomize or
 * usercustomize module with the package modules they import, and the makefiles and configure scripts when one of them
 * runs make or configure; for both, what a source build runs (CMake, Meson, build.rs).
 */
export function installTimeFiles(release: PackageRelease, hooks: readonly HookCommand[]): Set<string> {
  const files = new Map(release.files.map((f) => [f.path, f]));
  const out = new Set<string>();
  let frontier: string[] = [];
  if (release.ecosystem === 'npm') frontier = hooks.flatMap((h) => h.targets);
  else {
    if (files.has('setup.py')) frontier.push('setup.py');
    frontier.push(...pythonBuildHooks(files));
    // cffi's build scripts (`cffi_modules=["build_ffi.py:ffibuilder"]`) run while the extension is built
    for (const config of [textOf(files.get('setup.py')), textOf(files.get('setup.cfg'))]) {
      const at = config.indexOf('cffi_modules');
      if (at === -1) continue;
      for (const m of config.slice(at, at + 1000).matchAll(CFFI_MODULE)) {
        const p = path.normalize(m[1] ?? '').replace(/^\.\//, '');
        if (files.has(p)) frontier.push(p);
      }
    }
    // a .pth file's import lines, and a sitecustomize or usercustomize module the release installs beside its
    // packages, run at every interpreter start: the package modules they import run then too
    for (const f of release.files) if (f.path.endsWith('.pth') || STARTUP_MODULE.test(f.path)) frontier.push(f.path);
  }
  for (let depth = 0; depth < 4 && frontier.length > 0 && out.size < 60; depth++) {
    const next: string[] = [];
    for (const p of frontier) {
      if (out.has(p)) continue;
      out.add(p);
      const text = textOf(files.get(p));
      if (text === '') continue;
      if (release.ecosystem === 'npm') {
        for (const r of jsRequired(files, p, text)) if (!out.has(r)) next.push(r);
      } else if (depth === 0) {
        // the release's folders the script puts on the import path (`sys.path.insert(0, os.path.join(here, "build_helpers"))`)
        const dirs = ['', ...sysPathDirs(text)];
        for (const m of text.matchAll(LOCAL_PY)) {
          const mod = (m[1] ?? m[2] ?? '').replace(/\./g, '/');
          for (const d of dirs) for (const c of [`${d}${mod}.py`, `${d}${mod}/__init__.py`]) if (files.has(c) && !out.has(c)) next.push(c);
        }
      }
    }
    frontier = next;
  }
  // make run by the Python build (`subprocess.check_call(["make", "-C", "native"])`): its makefiles' recipes are
  // shell commands run at install
  if (release.ecosystem !== 'npm' && [...out].some((p) => p.endsWith('.py') && RUNS_MAKE.test(textOf(files.get(p))))) {
    for (const f of release.files) if (MAKEFILE.test(f.path)) out.add(f.path);
  }
  // and a configure script it runs (`subprocess.check_call(["sh", "./configure"], cwd=VENDOR)`)
  if (release.ecosystem !== 'npm' && [...out].some((p) => p.endsWith('.py') && RUNS_CONFIGURE.test(textOf(files.get(p))))) {
    for (const f of release.files) if (/(?:^|\/)configure$/.test(f.path)) out.add(f.path);
  }
  // what a source build runs (CMake, Meson, build.rs): npm builds an addon at install, pip an sdist
  for (const f of release.files) if (runsAtBuild(f.path)) out.add(f.path);
  return out;
}

/** The package.json of an npm release, parsed (an empty object when it is missing or damaged). */
export function packageJson(release: PackageRelease): Record<string, unknown> {
  const text = textOf(release.files.find((f) => f.path === 'package.json'));
  try {
    const j: unknown = JSON.parse(text === '' ? '{}' : text);
    return isRecord(j) ? j : {};
  } catch {
    return {};
  }
}

/** The paths an npm `exports` map gives the package's root (`"."`, or the map itself), through its conditions (import, require, node, default). */
function rootExports(exports: unknown, depth = 0): string[] {
  if (typeof exports === 'string') return [exports];
  if (!isRecord(exports) || depth > 3) return [];
  const root = '.' in exports ? exports['.'] : Object.keys(exports).some((k) => k.startsWith('.')) ? undefined : exports;
  if (typeof root === 'string') return [root];
  if (!isRecord(root)) return [];
  return ['import', 'require', 'node', 'default'].flatMap((k) => rootExports(root[k], depth + 1));
}

/** Python modules that tools run, not what importing the package runs. */
const PY_NOT_IMPORTED = /(?:^|\/)(?:setup|conftest|noxfile|fabfile|tasks|manage|__main__|hatch_build)\.py$/;
/** Python imports at a module's top level (a line's start): what runs when the module is imported, not an import a function makes when called. */
const PY_TOP_IMPORT = /^(?:from|import)[ \t][^\n]*/gm;

/**
 * Package files loaded when the package is imported (their top-level code runs then): npm's entry module (`main`, the root of `exports`, else
 * index.js) and the local files it requires (4 levels); for PyPI, each top-level package's `__init__.py` and
 * top-level module (at the archive's root or under src/) and the package modules their top-level imports name.
 * Command-line entry points (npm `bin` targets, `__main__.py`) are run by their user, not on import.
 */
export function importTimeFiles(release: PackageRelease): Set<string> {
  const files = new Map(release.files.map((f) => [f.path, f]));
  const read = importReader(release);
  let frontier: string[] = [];
  const bins = new Set<string>();
  if (release.ecosystem === 'npm') {
    const pj = packageJson(release);
    const bin = pj['bin'];
    for (const b of typeof bin === 'string' ? [bin] : isRecord(bin) ? Object.values(bin) : []) {
      const r = typeof b === 'string' ? resolveIn(files, '.', b) : null;
      if (r !== null) bins.add(r);
    }
    for (const e of [...rootExports(pj['exports']), packageMain(release)]) {
      const r = resolveIn(files, '.', e);
      if (r !== null && !frontier.includes(r)) frontier.push(r);
    }
  } else {
    for (const f of release.files) if (/^(?:src\/)?[A-Za-z_]\w*(?:\/__init__)?\.py$/.test(f.path) && !PY_NOT_IMPORTED.test(f.path)) frontier.push(f.path);
  }
  const out = new Set<string>();
  for (let depth = 0; depth < 5 && frontier.length > 0 && out.size < 60; depth++) {
    const next: string[] = [];
    for (const p of frontier) {
      if (out.has(p) || bins.has(p) || PY_NOT_IMPORTED.test(p)) continue;
      out.add(p);
      // npm: a file's requires as the other readers see them (importReader); Python: its top-level imports only
      const loaded = release.ecosystem === 'npm' ? read(p) : pyImported(p, [...textOf(files.get(p)).matchAll(PY_TOP_IMPORT)].map((m) => m[0]).join('\n'), files);
      for (const r of loaded) if (!out.has(r)) next.push(r);
    }
    frontier = next;
  }
  return out;
}

/** Makefiles: `Makefile`, `makefile`, `GNUmakefile`, `*.mk`. */
export const MAKEFILE = /(?:^|\/)(?:GNUmakefile|[Mm]akefile)$|\.mk$/;
/** A Python build's call of a configure script: an argument list's item or a command line that starts one. */
const RUNS_CONFIGURE = /['"](?:\.\/|[\w./-]{0,100}\/)?configure(?:\s[^'"\n]{0,100})?['"]\s*[,\])]/;
/** Python code that runs make: a command list or string starting with make or gmake. */
const RUNS_MAKE = /[[(,]\s*['"]g?make['"]|['"]g?make(?:\s[^'"\n]{0,100})?['"]\s*[,)]|\bos\.system\s*\(\s*[fr]?['"]g?make\b/;

export function textOf(f: ReleaseFile | undefined): string {
  return f?.data && f.data.length <= 2 * 1024 * 1024 ? Buffer.from(f.data).toString('utf8') : '';
}

/** Python imports: `from .mod import a, b` (dots, module, names) and `import a.b, c`. */
const PY_FROM = /^[ \t]*from[ \t]+(\.*)(\w[\w.]*|(?<=\.))[ \t]+import[ \t]+\(?([\w., \t]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm;

/** The package files a Python module's imports name: relative ones from its folder, absolute ones from the archive's root. */
function pyImported(file: string, text: string, files: ReadonlyMap<string, ReleaseFile>): string[] {
  const out: string[] = [];
  const add = (mod: string): void => {
    for (const c of [`${mod}.py`, `${mod}/__init__.py`]) if (files.has(c)) out.push(c);
  };
  for (const m of text.matchAll(PY_FROM)) {
    const dots = m[1]?.length ?? 0;
    let base = dots > 0 ? path.dirname(file) : '';
    for (let i = 1; i < dots; i++) base = path.dirname(base);
    const mod = [base === '.' ? '' : base, (m[2] ?? '').replace(/\./g, '/')].filter((s) => s !== '').join('/');
    if (mod !== '') add(mod);
    // the names imported may be submodules (`from .testing import fixtures`)
    for (const n of (m[3] ?? '').split(',')) {
      const name = n.trim().split(/\s+/)[0];
      if (name !== undefined && /^\w+$/.test(name)) add(mod === '' ? name : `${mod}/${name}`);
    }
  }
  for (const m of text.matchAll(PY_IMPORT)) for (const n of (m[1] ?? '').split(',')) add(n.trim().replace(/\./g, '/'));
  return out;
}

/**
 * A reader of the package files a file loads directly: a Python module's imports of package modules, a JavaScript
 * file's relative requires and imports (other files, and files over 2 MiB, load none).
 */
function importReader(release: PackageRelease): (file: string) => string[] {
  const files = new Map(release.files.map((f) => [f.path, f]));
  let read = importsRead.get(release);
  if (read === undefined) importsRead.set(release, (read = new Map()));
  const known = read;
  return (p) => {
    const hit = known.get(p);
    if (hit !== undefined) return hit;
    const data = files.get(p)?.data;
    const text = !data || data.length > 2 * 1024 * 1024 ? null : Buffer.from(data).toString('utf8');
    const out = text === null ? [] : p.endsWith('.py') ? pyImported(p, text, files) : /\.[cm]?js$/.test(p) ? jsRequired(files, p, text) : [];
    known.set(p, out);
    return out;
  };
}

/** The imports read of each release's files, kept while the release is (the aside files and the linked flows read them both). */
const importsRead = new WeakMap<PackageRelease, Map<string, string[]>>();

/**
 * Files of test, example or fixture folders (`aside`) that the package's own code loads: a module the package's
 * `__init__` imports from its `testing/` folder runs whenever the package is imported, so it is not set aside. Followed
 * from every file not set aside, three steps through the files it reaches.
 */
export function loadedAsideFiles(release: PackageRelease, aside: (file: string) => boolean): Set<string> {
  const read = importReader(release);
  const out = new Set<string>();
  let frontier: string[] = [];
  const take = (t: string, into: string[]): void => {
    if (!aside(t) || out.has(t)) return;
    out.add(t);
    into.push(t);
  };
  for (const f of release.files) if (!aside(f.path)) for (const t of read(f.path)) take(t, frontier);
  for (let depth = 0; depth < 3 && frontier.length > 0 && out.size < 60; depth++) {
    const next: string[] = [];
    for (const p of frontier) for (const t of read(p)) take(t, next);
    frontier = next;
  }
  return out;
}

/** The package files each of `from` loads directly (importReader). */
export function directImports(release: PackageRelease, from: ReadonlySet<string>): Map<string, string[]> {
  const read = importReader(release);
  return new Map([...from].map((p) => [p, read(p)]));
}
