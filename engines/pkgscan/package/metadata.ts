// Declared-metadata parsers for releases, read as text only: package.json, PKG-INFO/METADATA, setup.cfg, pyproject.toml, setup.py literals, entry_points.txt.
import { parse as parseToml } from 'smol-toml';
import { pep503 } from '../../core/manifests/index.js';
import type { Person } from './types.js';
import { firstSpan, stripSpans } from '../../core/linear-text.js';
import { ownEntry, setOwn } from '../../core/own.js';

/** Fields of DeclaredMetadata other than name/version, all optional while gathering. */
export interface PartialMetadata {
  name?: string;
  version?: string;
  description?: string;
  license?: string;
  homepage?: string;
  repository?: string;
  author?: Person;
  maintainers: Person[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  entryPoints: string[];
}

export function emptyMetadata(): PartialMetadata {
  return { maintainers: [], scripts: {}, dependencies: {}, entryPoints: [] };
}

/** Sets the name, version and description a manifest declares, each only where it was found. */
function setDeclared(m: PartialMetadata, name: string | undefined, version: string | undefined, description: string | undefined): void {
  if (name !== undefined) m.name = name;
  if (version !== undefined) m.version = version;
  if (description !== undefined) m.description = description;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, max = 2000): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t.slice(0, max);
}

function person(name: string | undefined, email: string | undefined): Person | undefined {
  if (name === undefined && email === undefined) return undefined;
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}

/** npm's "Name <email> (url)" string form. */
export function parsePersonString(text: string): Person | undefined {
  // Spans read by one scan each: `<` or `(` repeated without a close was read to the end from each one by a pattern.
  const email = firstSpan(text, '<', '>')?.trim();
  const name = stripSpans(stripSpans(text, '<', '>'), '(', ')').trim();
  return person(name === '' ? undefined : name, email === '' ? undefined : email);
}

function personOf(v: unknown): Person | undefined {
  if (typeof v === 'string') return parsePersonString(v);
  if (isRecord(v)) return person(str(v['name']), str(v['email']));
  return undefined;
}

function urlOf(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (isRecord(v)) return str(v['url']);
  return undefined;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(v)) return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') setOwn(out, k, val);
  return out;
}

/** package.json; undefined when the text is not a JSON object. */
export function parsePackageJson(text: string): PartialMetadata | undefined {
  let doc: Json;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Json;
  } catch {
    return undefined;
  }
  if (!isRecord(doc)) return undefined;
  const m = emptyMetadata();
  setDeclared(m, str(doc['name'], 214), str(doc['version'], 256), str(doc['description']));
  const lic = doc['license'];
  const legacy = doc['licenses'];
  const license = typeof lic === 'string' ? str(lic) : isRecord(lic) ? str(lic['type']) : Array.isArray(legacy) ? legacy.map((l) => (isRecord(l) ? str(l['type']) : str(l))).filter((l) => l !== undefined).join(' OR ') || undefined : undefined;
  if (license !== undefined) m.license = license;
  const homepage = str(doc['homepage']);
  if (homepage !== undefined) m.homepage = homepage;
  const repository = urlOf(doc['repository']);
  if (repository !== undefined) m.repository = repository;
  const author = personOf(doc['author']);
  if (author !== undefined) m.author = author;
  for (const key of ['maintainers', 'contributors']) {
    const list = doc[key];
    if (Array.isArray(list)) for (const p of list.slice(0, 200)) {
      const pp = personOf(p);
      if (pp !== undefined) m.maintainers.push(pp);
    }
  }
  m.scripts = stringMap(doc['scripts']);
  m.dependencies = { ...stringMap(doc['dependencies']), ...stringMap(doc['optionalDependencies']) };
  const bin = doc['bin'];
  if (typeof bin === 'string' && m.name !== undefined) m.entryPoints = [m.name.replace(/^@[^/]*\//, '')];
  else if (isRecord(bin)) m.entryPoints = Object.keys(bin);
  return m;
}

/** RFC 822-style headers (PKG-INFO, METADATA): lower-cased names to every value, continuation lines joined; the body after the blank line is ignored. */
export function parseHeaders(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let last: { key: string; index: number } | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (line.trim() === '') break;
    if (/^[ \t]/.test(line) && last !== undefined) {
      const values = out.get(last.key);
      if (values !== undefined) values[last.index] = `${values[last.index] ?? ''}\n${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const values = out.get(key) ?? [];
    values.push(value);
    out.set(key, values);
    last = { key, index: values.length - 1 };
  }
  return out;
}

/** "Name <a@b>, c@d, "Last, First" <e@f>" as people. */
export function parseEmailList(text: string): Person[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  let angle = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '<') angle = true;
    else if (ch === '>') angle = false;
    if (ch === ',' && !quoted && !angle) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  const people: Person[] = [];
  for (const raw of parts) {
    const t = raw.trim();
    if (t === '') continue;
    const m = nameAndAddress(t);
    const p = m !== undefined ? person(str(m.name.replace(/"/g, '')), str(m.address)) : t.includes('@') ? person(undefined, str(t)) : person(str(t), undefined);
    if (p !== undefined) people.push(p);
  }
  return people;
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * `Name <address>` at the end of a trimmed text: the address is what the last `<...>` holds (no `>` inside), the name
 * everything before its `<`; undefined when the text does not end that way. Index arithmetic, not a lazy regular
 * expression, which is quadratic on a long run of `<`.
 */
function nameAndAddress(t: string): { name: string; address: string } | undefined {
  const end = t.length - 1;
  if (t[end] !== '>') return undefined;
  const open = t.indexOf('<', t.lastIndexOf('>', end - 1) + 1);
  if (open < 0 || open >= end) return undefined;
  const name = t.slice(0, open);
  // The name is one line (as `.` in a pattern): a line break before the `<` means the text is not this form.
  return LINE_BREAK.test(name) ? undefined : { name, address: t.slice(open + 1, end) };
}

const HOMEPAGE_LABELS = /^(home|homepage|home-page|website|documentation)$/i;
const REPOSITORY_LABELS = /^(source|sources|source code|repository|code|github|gitlab|git)$/i;

/**
 * A requirement's name and the rest. The name and the blanks after it are taken whole (the look-aheads): a rest that
 * cannot match (a line terminator in it) is then not tried again from each shorter name.
 */
export const REQUIREMENT_HEAD = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?![A-Za-z0-9._-])\s*(?!\s)(.*)$/;

function addRequirement(deps: Record<string, string>, requirement: string): void {
  const m = REQUIREMENT_HEAD.exec(requirement);
  if (m?.[1] === undefined) return;
  const name = pep503(m[1]);
  const rest = (m[2] ?? '').trim();
  const before = ownEntry(deps, name);
  setOwn(deps, name, before === undefined ? rest : `${before} || ${rest}`);
}

/** PKG-INFO or a wheel's METADATA. */
export function parsePkgInfo(text: string): PartialMetadata {
  const h = parseHeaders(text);
  const one = (k: string): string | undefined => str(h.get(k)?.[0]);
  const m = emptyMetadata();
  const summary = one('summary');
  setDeclared(m, one('name'), one('version'), summary === 'UNKNOWN' ? undefined : summary);
  const license = one('license-expression') ?? one('license')?.split('\n')[0]?.slice(0, 200);
  if (license !== undefined && license !== 'UNKNOWN') m.license = license;
  let homepage = one('home-page');
  let repository: string | undefined;
  for (const pu of h.get('project-url') ?? []) {
    const comma = pu.indexOf(',');
    if (comma < 0) continue;
    const label = pu.slice(0, comma).trim();
    const url = str(pu.slice(comma + 1));
    if (url === undefined) continue;
    if (homepage === undefined && HOMEPAGE_LABELS.test(label)) homepage = url;
    if (repository === undefined && REPOSITORY_LABELS.test(label)) repository = url;
  }
  if (homepage !== undefined && homepage !== 'UNKNOWN') m.homepage = homepage;
  if (repository !== undefined) m.repository = repository;
  const authors = parseEmailList(one('author-email') ?? '');
  const authorName = one('author');
  const first = authors[0];
  const author = person(authorName !== undefined && authorName !== 'UNKNOWN' ? authorName : first?.name, first?.email);
  if (author !== undefined) m.author = author;
  const maintainerName = one('maintainer');
  const maintainerEmails = parseEmailList(one('maintainer-email') ?? '');
  if (maintainerEmails.length > 0) m.maintainers.push(...maintainerEmails.map((p, i) => (i === 0 && maintainerName !== undefined ? { ...p, name: maintainerName } : p)));
  else if (maintainerName !== undefined) m.maintainers.push({ name: maintainerName });
  for (const req of h.get('requires-dist') ?? []) addRequirement(m.dependencies, req);
  return m;
}

/** A minimal INI reader (setup.cfg, entry_points.txt): section -> key -> value, indented lines continue a value. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let lastKey: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    const sec = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (sec?.[1] !== undefined) {
      section = out.get(sec[1].trim()) ?? new Map<string, string>();
      out.set(sec[1].trim(), section);
      lastKey = undefined;
      continue;
    }
    if (section === undefined) continue;
    if (/^\s/.test(line) && lastKey !== undefined) {
      section.set(lastKey, `${section.get(lastKey) ?? ''}\n${line.trim()}`);
      continue;
    }
    const eq = line.search(/[=:]/);
    if (eq <= 0) continue;
    lastKey = line.slice(0, eq).trim();
    section.set(lastKey, line.slice(eq + 1).trim());
  }
  return out;
}

/** Console and GUI script names from an entry_points.txt. */
export function parseEntryPoints(text: string): string[] {
  const ini = parseIni(text);
  return ['console_scripts', 'gui_scripts'].flatMap((s) => [...(ini.get(s)?.keys() ?? [])]);
}

/** setup.cfg [metadata]; `attr:`/`file:` directives are not literals and are skipped. */
export function parseSetupCfg(text: string): PartialMetadata {
  const ini = parseIni(text);
  const meta = ini.get('metadata');
  const m = emptyMetadata();
  const lit = (k: string): string | undefined => {
    const v = str(meta?.get(k));
    return v === undefined || /^(attr|file):/.test(v) ? undefined : v;
  };
  setDeclared(m, lit('name'), lit('version'), lit('description'));
  const license = lit('license');
  if (license !== undefined) m.license = license;
  const url = lit('url') ?? lit('home_page');
  if (url !== undefined) m.homepage = url;
  const author = person(lit('author'), lit('author_email'));
  if (author !== undefined) m.author = author;
  for (const req of (ini.get('options')?.get('install_requires') ?? '').split(/[\n;]/)) if (req.trim() !== '') addRequirement(m.dependencies, req);
  const eps = ini.get('options.entry_points')?.get('console_scripts') ?? '';
  m.entryPoints = eps
    .split('\n')
    .map((l) => l.split('=')[0]?.trim() ?? '')
    .filter((l) => l !== '');
  return m;
}

/** pyproject.toml [project] (PEP 621), else [tool.poetry]. */
export function parsePyproject(text: string): PartialMetadata {
  const m = emptyMetadata();
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch {
    return m;
  }
  if (!isRecord(doc)) return m;
  const tool = isRecord(doc['tool']) ? doc['tool'] : {};
  const flit = isRecord(tool['flit']) && isRecord(tool['flit']['metadata']) ? tool['flit']['metadata'] : undefined;
  if (flit !== undefined) {
    // Old flit: the distribution is named by dist-name, else by its module; the version lives in the module.
    const name = str(flit['dist-name']) ?? str(flit['module']);
    if (name !== undefined) m.name = name;
    const author = person(str(flit['author']), str(flit['author-email']));
    if (author !== undefined) m.author = author;
    const home = str(flit['home-page']);
    if (home !== undefined) m.homepage = home;
  }
  const project = isRecord(doc['project']) ? doc['project'] : isRecord(tool['poetry']) ? tool['poetry'] : undefined;
  if (project === undefined) return m;
  setDeclared(m, str(project['name'], 256), str(project['version'], 256), str(project['description']));
  const lic = project['license'];
  const license = typeof lic === 'string' ? str(lic) : isRecord(lic) ? str(lic['text'])?.split('\n')[0] : undefined;
  if (license !== undefined) m.license = license;
  const authors = project['authors'];
  if (Array.isArray(authors)) {
    const first = personOf(authors[0]);
    if (first !== undefined) m.author = first;
  }
  const maintainers = project['maintainers'];
  if (Array.isArray(maintainers)) for (const p of maintainers) {
    const pp = personOf(p);
    if (pp !== undefined) m.maintainers.push(pp);
  }
  const urls = isRecord(project['urls']) ? project['urls'] : {};
  for (const [label, url] of Object.entries(urls)) {
    if (typeof url !== 'string') continue;
    if (m.homepage === undefined && HOMEPAGE_LABELS.test(label)) m.homepage = url;
    if (m.repository === undefined && REPOSITORY_LABELS.test(label)) m.repository = url;
  }
  const homepage = str(project['homepage']);
  if (m.homepage === undefined && homepage !== undefined) m.homepage = homepage;
  const repository = str(project['repository']);
  if (m.repository === undefined && repository !== undefined) m.repository = repository;
  const deps = project['dependencies'];
  if (Array.isArray(deps)) for (const d of deps) if (typeof d === 'string') addRequirement(m.dependencies, d);
  // the build's own requirements are installed and run too (a direct reference among them is fetched at build time)
  const build = isRecord(doc['build-system']) ? doc['build-system']['requires'] : undefined;
  if (Array.isArray(build)) for (const d of build) if (typeof d === 'string' && d.includes('@')) addRequirement(m.dependencies, d);
  if (isRecord(deps)) for (const [k, v] of Object.entries(deps)) if (k.toLowerCase() !== 'python') m.dependencies[pep503(k)] = typeof v === 'string' ? v : JSON.stringify(v);
  const scripts = project['scripts'];
  if (isRecord(scripts)) m.entryPoints = Object.keys(scripts);
  return m;
}

/** `name=`/`version=` string literals in a setup.py, read as text and never run; the first of each wins. */
export function parseSetupPy(text: string): PartialMetadata {
  const m = emptyMetadata();
  const lit = (key: string): string | undefined => {
    const re = new RegExp(`\\b${key}\\s*=\\s*(?:u|r)?(['"])([^'"\\n]{1,256})\\1`);
    return str(re.exec(text)?.[2]);
  };
  setDeclared(m, lit('name'), lit('version'), lit('description'));
  const author = person(lit('author'), lit('author_email'));
  if (author !== undefined) m.author = author;
  const url = lit('url');
  if (url !== undefined) m.homepage = url;
  m.entryPoints = setupPyCommands(text);
  return m;
}

/** An entry point's command name in a list of literals (`"pip = pkg.shim:main"`). */
const COMMAND_ITEM = /['"]\s*([A-Za-z0-9][\w.-]{0,80})\s*=\s*[A-Za-z_][\w.]{0,200}(?:\s*:\s*[A-Za-z_][\w.]{0,100})?\s*['"]/g;

/** The commands setup.py's literal `entry_points` name (`console_scripts` and `gui_scripts` lists). */
function setupPyCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/['"](?:console|gui)_scripts['"]\s*:\s*\[/g)) {
    const start = m.index + m[0].length;
    const end = text.indexOf(']', start);
    const list = text.slice(start, end === -1 ? start : Math.min(end, start + 5000));
    for (const c of list.matchAll(COMMAND_ITEM)) if (c[1] !== undefined && !out.includes(c[1])) out.push(c[1]);
  }
  return out.slice(0, 100);
}

/** Fills gaps in `into` from `from` (the first source to declare a field wins). */
export function mergeMetadata(into: PartialMetadata, from: Partial<PartialMetadata>): void {
  if (into.name === undefined && from.name !== undefined) into.name = from.name;
  if (into.version === undefined && from.version !== undefined) into.version = from.version;
  if (into.description === undefined && from.description !== undefined) into.description = from.description;
  if (into.license === undefined && from.license !== undefined) into.license = from.license;
  if (into.homepage === undefined && from.homepage !== undefined) into.homepage = from.homepage;
  if (into.repository === undefined && from.repository !== undefined) into.repository = from.repository;
  if (into.author === undefined && from.author !== undefined) into.author = from.author;
  if (into.maintainers.length === 0 && from.maintainers !== undefined) into.maintainers = from.maintainers;
  if (Object.keys(into.dependencies).length === 0 && from.dependencies !== undefined) into.dependencies = from.dependencies;
  if (into.entryPoints.length === 0 && from.entryPoints !== undefined) into.entryPoints = from.entryPoints;
}

/** Name and version from a release file name: `name-1.0.tgz`, `name-1.0.tar.gz`, `name-1.0.zip`, `name-1.0-py3-none-any.whl`. */
export function parseReleaseFilename(filename: string): { name: string; version: string } | undefined {
  const base = filename.split(/[\\/]/).pop() ?? '';
  if (base.endsWith('.whl')) {
    const parts = base.slice(0, -4).split('-');
    if (parts.length >= 5 && parts[0] !== undefined && parts[1] !== undefined) return { name: parts[0], version: parts[1] };
    return undefined;
  }
  const m = /^(.+?)-(v?\d[^-]*?)\.(tgz|tar\.gz|tar|zip|tar\.bz2)$/i.exec(base);
  if (m?.[1] === undefined || m[2] === undefined) return undefined;
  return { name: m[1], version: m[2] };
}
