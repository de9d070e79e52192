// Install-time execution: what an npm install hook runs (a native-addon build is ordinary, a shell download is not), and which package files run at install (hook targets, setup.py, .pth, and the local files they load).
import path from 'node:path/posix';
import type { PackageRelease, ReleaseFile } from '../../package/types.js';
import { INSTALL_HOOKS } from '../../vocabulary.js';

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
}

function dequote(s: string): string {
  return s.replace(/^(['"])([\s\S]*)\1$/, '$2');
}

function resolveIn(files: ReadonlyMap<string, ReleaseFile>, from: string, spec: string): string | null {
  const base = path.normalize(path.join(from, spec)).replace(/^\.\//, '');
  for (const c of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}/index.js`, `${base}/index.cjs`]) if (files.has(c)) return c;
  return null;
}

function packageMain(release: PackageRelease): string {
  const pj = release.files.find((f) => f.path === 'package.json');
  try {
    const j = pj?.data ? (JSON.parse(Buffer.from(pj.data).toString('utf8')) as Record<string, unknown>) : {};
    if (typeof j['main'] === 'string' && j['main'] !== '') return j['main'];
  } catch {
    // a damaged package.json: node's default entry point
  }
  return 'index.js';
}

/** The install hooks of an npm release, each split into what it runs. */
export function npmHooks(release: PackageRelease): HookCommand[] {
  const files = new Map(release.files.map((f) => [f.path, f]));
  const pjText = (() => {
    const pj = files.get('package.json');
    return pj?.data ? Buffer.from(pj.data).toString('utf8') : '';
  })();
  const out: HookCommand[] = [];
  for (const hook of INSTALL_HOOKS) {
    const command = release.metadata.scripts[hook];
    if (command === undefined || command.trim() === '') continue;
    const at = pjText.search(new RegExp(`"${hook}"\\s*:`));
    const line = at === -1 ? null : pjText.slice(0, at).split('\n').length;
    // Split on the operators and trim each part (a `\s*` on both sides of the split pattern is quadratic on long runs of spaces).
    const parts = command.split(/&&|\|\||;|\||&/).map((p) => p.trim()).filter((p) => p !== '');
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
        for (const m of code.matchAll(/\brequire\s*\(\s*\\?['"`](\.{1,2}\/[^'"`\\]+)\\?['"`]\s*\)/g)) {
          const t = m[1] === undefined ? null : resolveIn(files, '', m[1]);
          if (t !== null) targets.push(t);
        }
        ordinary = false;
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
      if (!ORDINARY.some((re) => re.test(part))) {
        ordinary = false;
        shell = true;
      }
    }
    out.push({ hook, command, line, ordinary, targets, inline, shell });
  }
  return out;
}

const LOCAL_JS = /\brequire\s*\(\s*['"`](\.{1,2}(?:\/[^'"`]*)?)['"`]\s*\)|\bimport\s*(?:[^'"`;]{0,300}?\sfrom\s*)?['"`](\.{1,2}\/[^'"`]+)['"`]/g;
const LOCAL_PY = /^[ \t]*(?:from\s+\.?([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*))/gm;

/** Package files that run at install: npm hook targets and the local files they require (3 levels), setup.py and the package modules it imports, and .pth files. */
export function installTimeFiles(release: PackageRelease, hooks: readonly HookCommand[]): Set<string> {
  const files = new Map(release.files.map((f) => [f.path, f]));
  const out = new Set<string>();
  let frontier: string[] = [];
  if (release.ecosystem === 'npm') frontier = hooks.flatMap((h) => h.targets);
  else {
    if (files.has('setup.py')) frontier.push('setup.py');
    for (const f of release.files) if (f.path.endsWith('.pth')) out.add(f.path);
  }
  for (let depth = 0; depth < 4 && frontier.length > 0 && out.size < 60; depth++) {
    const next: string[] = [];
    for (const p of frontier) {
      if (out.has(p)) continue;
      out.add(p);
      const data = files.get(p)?.data;
      if (!data || data.length > 2 * 1024 * 1024) continue;
      const text = Buffer.from(data).toString('utf8');
      if (release.ecosystem === 'npm') {
        for (const m of text.matchAll(LOCAL_JS)) {
          const spec = m[1] ?? m[2];
          if (spec === undefined) continue;
          const r = resolveIn(files, path.dirname(p), spec);
          if (r !== null && !out.has(r)) next.push(r);
        }
      } else if (depth === 0) {
        for (const m of text.matchAll(LOCAL_PY)) {
          const mod = (m[1] ?? m[2] ?? '').replace(/\./g, '/');
          for (const c of [`${mod}.py`, `${mod}/__init__.py`]) if (files.has(c) && !out.has(c)) next.push(c);
        }
      }
    }
    frontier = next;
  }
  return out;
}
