// Declaring manifests (package.json, pyproject.toml): the dependencies a project asks for, with their specifiers and lines, for project-scan hygiene checks.
import { createHash } from 'node:crypto';
import semver from 'semver';
import { parse as parseToml } from 'smol-toml';
import { VitrineError } from '../errors.js';
import { isRecord, parseError, pep503, splitLines, stripBom } from './context.js';
import { parseJsonWithLines } from './jsonlines.js';
import type { Ecosystem, ManifestWarning } from './types.js';
import { MAX_WARNINGS } from './types.js';
import { lastLineTerminator, skipRegexBlanks } from '../linear-text.js';

/** The declaring formats; they are not lock files, so they stay out of the pin registry (ecosystemFor is unchanged). */
export type DeclaredFormat = 'package-json' | 'pyproject';

/** How a dependency is asked for. */
export type DeclaredKind = 'exact' | 'range' | 'unpinned' | 'git' | 'url' | 'path' | 'workspace';

export interface DeclaredDependency {
  /** Normalised name (PEP 503 for pypi, as published for npm; an npm alias gives the published name). */
  readonly name: string;
  /** The key as written when it differs (npm alias, pypi spelling). */
  readonly rawName?: string;
  /** The specifier as written (`^1.2.0`, `>=2,<3`, `git+https://...`); empty when none. */
  readonly specifier: string;
  readonly kind: DeclaredKind;
  readonly group: 'prod' | 'dev' | 'optional' | 'peer';
  /** 0-based line naming the dependency, when found. */
  readonly line?: number;
}

/** A package index a pyproject declares (poetry `source`, uv `index`), for dependency-confusion checks. */
export interface DeclaredIndex {
  readonly name?: string;
  readonly url: string;
  readonly line?: number;
}

export interface DeclaredManifest {
  readonly format: DeclaredFormat;
  readonly ecosystem: Ecosystem;
  readonly project?: { readonly name?: string; readonly version?: string };
  readonly dependencies: readonly DeclaredDependency[];
  /** npm lifecycle scripts that run at install time (`preinstall`, `install`, `postinstall`, `prepare`), by name. */
  readonly installScripts: readonly string[];
  readonly indexes: readonly DeclaredIndex[];
  /** npm `publishConfig.registry` host, when set. */
  readonly publishRegistry?: string;
  readonly warnings: readonly ManifestWarning[];
  readonly warningCount: number;
  readonly sha256: string;
}

const MAX_CHARS = 8 * 1024 * 1024;

/** The declaring format a file name selects, if any (base name, case-insensitive). */
export function declaredFormatFor(fileName: string): DeclaredFormat | undefined {
  const base = (fileName.split(/[\\/]/).pop() ?? '').toLowerCase();
  if (base === 'package.json') return 'package-json';
  if (base === 'pyproject.toml') return 'pyproject';
  return undefined;
}

class Warnings {
  readonly list: ManifestWarning[] = [];
  count = 0;
  warn(code: ManifestWarning['code'], message: string, line?: number): void {
    this.count++;
    if (this.list.length < MAX_WARNINGS) this.list.push(line === undefined ? { code, message } : { code, message, line });
  }
}

/** npm specifier kinds, after npm-package-arg's classification (aliases are classified by their target). */
export function npmSpecKind(spec: string): DeclaredKind {
  const s = spec.trim();
  if (s.startsWith('npm:')) {
    const at = s.lastIndexOf('@');
    return at > 4 ? npmSpecKind(s.slice(at + 1)) : 'unpinned';
  }
  if (s.startsWith('workspace:')) return 'workspace';
  if (/^(file:|link:|\.\.?\/|\/|~\/)/.test(s)) return 'path';
  if (/^(git(\+[a-z]+)?:|github:|gitlab:|bitbucket:|gist:)/.test(s) || /^[A-Za-z0-9][\w.-]*\/[\w.-]+(#.*)?$/.test(s)) return 'git';
  if (/^https?:\/\//.test(s)) return 'url';
  if (s === '' || s === '*' || s === 'x' || s === 'X') return 'unpinned';
  if (semver.valid(s) !== null || /^=?v?\d+\.\d+\.\d+(-[\w.]+)?(\+[\w.]+)?$/.test(s)) return 'exact';
  if (semver.validRange(s) !== null) return 'range';
  // anything else is a dist-tag (`latest`, `next`): whatever the registry points at when installed
  return 'unpinned';
}

/** PEP 440 specifier kinds: `==` without a wildcard and `===` pin; anything else is a range; nothing is unpinned. */
export function pep440SpecKind(spec: string): DeclaredKind {
  const s = spec.replace(/\s+/g, '');
  if (s === '') return 'unpinned';
  if (/^===[^,]+$/.test(s) || (/^==[^,*]+$/.test(s) && !s.includes('*'))) return 'exact';
  return 'range';
}

/** Poetry's own specifier syntax: a bare version pins it, `*` pins nothing, the rest are ranges. */
function poetrySpecKind(spec: string): DeclaredKind {
  const s = spec.trim();
  if (s === '' || s === '*') return 'unpinned';
  if (/^\d[a-z0-9.+-]*$/i.test(s)) return 'exact'; // a digit, then version characters
  return pep440SpecKind(s);
}

function urlKind(url: string): DeclaredKind {
  if (/^git\+/.test(url) || /\.git(@|#|$)/.test(url)) return 'git';
  if (/^file:/.test(url)) return 'path';
  return 'url';
}

const NAME_START = /^[A-Za-z0-9]$/;
const NAME_CHAR = /^[A-Za-z0-9._-]$/;

/**
 * The name and the text after the name, extras and blanks of a PEP 508 string, as
 * /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/ answered (groups 1 and 3), in one pass: the pattern
 * retried every split of the blanks when a lone line terminator came later. Its greedy path leaves the latest start
 * for the rest, so when that rest holds a terminator no other path matches.
 */
export function pep508Parts(text: string): { rawName: string; rest: string } | undefined {
  const start = skipRegexBlanks(text, 0);
  if (!NAME_START.test(text.charAt(start))) return undefined;
  let end = start + 1;
  while (end < text.length && NAME_CHAR.test(text.charAt(end))) end++;
  let i = skipRegexBlanks(text, end);
  if (text.charAt(i) === '[') {
    const close = text.indexOf(']', i + 1);
    if (close >= 0) i = skipRegexBlanks(text, close + 1);
  }
  return i > lastLineTerminator(text) ? { rawName: text.slice(start, end), rest: text.slice(i) } : undefined;
}

/** One PEP 508 string: name, extras, specifier or `@ url`, marker. */
export function parsePep508(text: string): { name: string; rawName: string; specifier: string; kind: DeclaredKind } | undefined {
  const m = pep508Parts(text);
  if (m === undefined) return undefined;
  const { rawName } = m;
  let rest = m.rest.trim();
  if (rest.startsWith('@')) {
    const url = rest.slice(1).split(';')[0]?.trim() ?? '';
    return { name: pep503(rawName), rawName, specifier: url, kind: urlKind(url) };
  }
  rest = rest.split(';')[0]?.trim() ?? '';
  if (rest.startsWith('(') && rest.endsWith(')')) rest = rest.slice(1, -1);
  return { name: pep503(rawName), rawName, specifier: rest.replace(/\s+/g, ''), kind: pep440SpecKind(rest) };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

function readPackageJson(text: string, w: Warnings): Omit<DeclaredManifest, 'warnings' | 'warningCount' | 'sha256'> {
  const { value, keyLines } = parseJsonWithLines(text);
  if (!isRecord(value)) throw parseError('package.json is not a JSON object');
  const deps: DeclaredDependency[] = [];
  const groups: [string, DeclaredDependency['group']][] = [
    ['dependencies', 'prod'],
    ['devDependencies', 'dev'],
    ['optionalDependencies', 'optional'],
    ['peerDependencies', 'peer'],
  ];
  const rootLines = keyLines.get(value);
  for (const [field, group] of groups) {
    const section = value[field];
    if (section === undefined) continue;
    if (!isRecord(section)) {
      w.warn('malformed_entry', 'a dependency section is not an object', rootLines?.get(field));
      continue;
    }
    const lines = keyLines.get(section);
    for (const [key, spec] of Object.entries(section)) {
      const line = lines?.get(key);
      if (typeof spec !== 'string') {
        w.warn('malformed_entry', 'a dependency specifier is not a string', line);
        continue;
      }
      let name = key;
      if (spec.startsWith('npm:')) {
        const inner = spec.slice(4);
        const at = inner.lastIndexOf('@');
        name = at > 0 ? inner.slice(0, at) : inner;
      }
      deps.push({ name, ...(name !== key ? { rawName: key } : {}), specifier: spec, kind: npmSpecKind(spec), group, ...(line !== undefined ? { line } : {}) });
    }
  }
  const scripts = isRecord(value['scripts']) ? Object.keys(value['scripts']).filter((k) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(k)) : [];
  const publish = isRecord(value['publishConfig']) && typeof value['publishConfig']['registry'] === 'string' ? hostOf(value['publishConfig']['registry']) : undefined;
  const name = typeof value['name'] === 'string' ? value['name'] : undefined;
  const version = typeof value['version'] === 'string' ? value['version'] : undefined;
  return {
    format: 'package-json',
    ecosystem: 'npm',
    ...(name !== undefined || version !== undefined ? { project: { ...(name !== undefined ? { name } : {}), ...(version !== undefined ? { version } : {}) } } : {}),
    dependencies: deps,
    installScripts: scripts,
    indexes: [],
    ...(publish !== undefined ? { publishRegistry: publish } : {}),
  };
}

/** The first 0-based line at or after `from` that contains `needle`. */
function lineOfText(lines: readonly string[], needle: string, from = 0): number | undefined {
  for (let i = from; i < lines.length; i++) if ((lines[i] ?? '').includes(needle)) return i;
  return undefined;
}

function readPyproject(text: string, w: Warnings): Omit<DeclaredManifest, 'warnings' | 'warningCount' | 'sha256'> {
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch {
    throw parseError('pyproject.toml is not valid TOML');
  }
  if (!isRecord(doc)) throw parseError('pyproject.toml is not a TOML table');
  const lines = splitLines(text);
  const deps: DeclaredDependency[] = [];
  const pep508List = (list: unknown, group: DeclaredDependency['group'], sectionHeader: string): void => {
    if (list === undefined) return;
    if (!Array.isArray(list)) {
      w.warn('malformed_entry', 'a dependency list is not an array');
      return;
    }
    const start = lineOfText(lines, sectionHeader) ?? 0;
    for (const item of list) {
      if (typeof item !== 'string') {
        w.warn('malformed_entry', 'a dependency is not a string');
        continue;
      }
      const r = parsePep508(item);
      if (!r) {
        w.warn('unparsed_line', 'a dependency string is not a PEP 508 requirement', lineOfText(lines, item, start));
        continue;
      }
      const line = lineOfText(lines, `"${item}"`, start) ?? lineOfText(lines, `'${item}'`, start) ?? lineOfText(lines, item, start);
      deps.push({ name: r.name, ...(r.rawName !== r.name ? { rawName: r.rawName } : {}), specifier: r.specifier, kind: r.kind, group, ...(line !== undefined ? { line } : {}) });
    }
  };
  const project = isRecord(doc['project']) ? doc['project'] : undefined;
  if (project) {
    pep508List(project['dependencies'], 'prod', 'dependencies');
    const opt = project['optional-dependencies'];
    if (isRecord(opt)) for (const [k, list] of Object.entries(opt)) pep508List(list, 'optional', k);
  }
  const groups = doc['dependency-groups'];
  if (isRecord(groups)) for (const [k, list] of Object.entries(groups)) pep508List(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : list, 'dev', k);
  const tool = isRecord(doc['tool']) ? doc['tool'] : undefined;
  const poetry = tool && isRecord(tool['poetry']) ? tool['poetry'] : undefined;
  const indexes: DeclaredIndex[] = [];
  const poetryTable = (table: unknown, group: DeclaredDependency['group'], header: string): void => {
    if (!isRecord(table)) return;
    const start = lineOfText(lines, header) ?? 0;
    for (const [key, spec] of Object.entries(table)) {
      if (key.toLowerCase() === 'python') continue;
      const line = lineOfText(lines, `${key} =`, start) ?? lineOfText(lines, key, start);
      const base = { name: pep503(key), ...(pep503(key) !== key ? { rawName: key } : {}), group, ...(line !== undefined ? { line } : {}) };
      const one = (s: unknown): void => {
        if (typeof s === 'string') deps.push({ ...base, specifier: s, kind: poetrySpecKind(s) });
        else if (isRecord(s)) {
          if (typeof s['git'] === 'string') deps.push({ ...base, specifier: s['git'], kind: 'git' });
          else if (typeof s['path'] === 'string') deps.push({ ...base, specifier: s['path'], kind: 'path' });
          else if (typeof s['url'] === 'string') deps.push({ ...base, specifier: s['url'], kind: 'url' });
          else if (typeof s['version'] === 'string') deps.push({ ...base, specifier: s['version'], kind: poetrySpecKind(s['version']) });
          else deps.push({ ...base, specifier: '', kind: 'unpinned' });
        } else w.warn('malformed_entry', 'a poetry dependency is neither a string nor a table', line);
      };
      if (Array.isArray(spec)) spec.forEach(one);
      else one(spec);
    }
  };
  if (poetry) {
    poetryTable(poetry['dependencies'], 'prod', '[tool.poetry.dependencies]');
    poetryTable(poetry['dev-dependencies'], 'dev', '[tool.poetry.dev-dependencies]');
    if (isRecord(poetry['group'])) for (const [g, body] of Object.entries(poetry['group'])) if (isRecord(body)) poetryTable(body['dependencies'], 'dev', `[tool.poetry.group.${g}.dependencies]`);
    const sources = poetry['source'];
    if (Array.isArray(sources))
      for (const s of sources) if (isRecord(s) && typeof s['url'] === 'string') indexes.push({ url: s['url'], ...(typeof s['name'] === 'string' ? { name: s['name'] } : {}), ...(lineOfText(lines, s['url']) !== undefined ? { line: lineOfText(lines, s['url']) as number } : {}) });
  }
  const uv = tool && isRecord(tool['uv']) ? tool['uv'] : undefined;
  if (uv && Array.isArray(uv['index']))
    for (const s of uv['index']) if (isRecord(s) && typeof s['url'] === 'string') indexes.push({ url: s['url'], ...(typeof s['name'] === 'string' ? { name: s['name'] } : {}), ...(lineOfText(lines, s['url']) !== undefined ? { line: lineOfText(lines, s['url']) as number } : {}) });
  const name = project && typeof project['name'] === 'string' ? project['name'] : poetry && typeof poetry['name'] === 'string' ? poetry['name'] : undefined;
  const version = project && typeof project['version'] === 'string' ? project['version'] : poetry && typeof poetry['version'] === 'string' ? poetry['version'] : undefined;
  return {
    format: 'pyproject',
    ecosystem: 'pypi',
    ...(name !== undefined || version !== undefined ? { project: { ...(name !== undefined ? { name } : {}), ...(version !== undefined ? { version } : {}) } } : {}),
    dependencies: deps,
    installScripts: [],
    indexes,
  };
}

/** Reads a package.json or pyproject.toml; throws VitrineError('parse_error') when the file is not its format at all. */
export function readDeclaredManifest(fileName: string, text: string): DeclaredManifest {
  const format = declaredFormatFor(fileName);
  if (format === undefined) throw new VitrineError('bad_request', 'not a declaring manifest');
  if (text.length > MAX_CHARS) throw parseError('the manifest is larger than the parser accepts');
  const body = stripBom(text);
  const w = new Warnings();
  let r;
  try {
    r = format === 'package-json' ? readPackageJson(body, w) : readPyproject(body, w);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw parseError('the manifest could not be parsed');
  }
  return { ...r, warnings: w.list, warningCount: w.count, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}
