// Static reachability for Python (gate --reach-repo/--reach-src/--reach-manifest): which declared distributions the sources import, reference or need through another.
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../core/errors.js';
import { parseManifestEntries, pep503 } from '../core/manifests/index.js';
import { ownEntry } from '../core/own.js';
import type { CollectResult } from './collect.js';
import { SCANNERS } from './events.js';
import { safeRelpath } from './lineage.js';
import { lastLineTerminator, skipRegexBlanks, stripHashComment } from '../core/linear-text.js';

/** imported: a source imports it; referenced: a dotted string names its module; transitive: a reachable distribution needs it. */
export type ReachStatus = 'imported' | 'referenced' | 'transitive' | 'unreached';

export interface ReachReport {
  /** Declared distribution (PEP 503 name) to its status. Distributions not declared are unknown. */
  readonly status: ReadonlyMap<string, ReachStatus>;
  readonly evidence: ReadonlyMap<string, string>;
  readonly filesScanned: number;
}

/** Distributions whose import name is not their name (the usual ones; others: name with - as _). */
const IMPORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  pyyaml: ['yaml'],
  pillow: ['PIL'],
  'beautifulsoup4': ['bs4'],
  'python-dateutil': ['dateutil'],
  'scikit-learn': ['sklearn'],
  'opencv-python': ['cv2'],
  'opencv-python-headless': ['cv2'],
  pycryptodome: ['Crypto'],
  pycryptodomex: ['Cryptodome'],
  pycrypto: ['Crypto'],
  pyjwt: ['jwt'],
  protobuf: ['google'],
  attrs: ['attr', 'attrs'],
  'python-magic': ['magic'],
  'python-dotenv': ['dotenv'],
  'typing-extensions': ['typing_extensions'],
  'msgpack-python': ['msgpack'],
  pyopenssl: ['OpenSSL'],
  'dnspython': ['dns'],
  'psycopg2-binary': ['psycopg2'],
  'psycopg-binary': ['psycopg'],
  'mysqlclient': ['MySQLdb'],
  'pymysql': ['pymysql'],
  'python-multipart': ['multipart'],
  'setuptools': ['setuptools', 'pkg_resources'],
  'ruamel.yaml': ['ruamel'],
  'google-cloud-storage': ['google'],
  'markdown': ['markdown'],
  'jinja2': ['jinja2'],
  'markupsafe': ['markupsafe'],
};

/** Import names a distribution may be imported as (lowercased for comparison). */
export function importNamesOf(dist: string, extra?: string): string[] {
  const n = pep503(dist);
  const names = new Set<string>([n.replace(/-/g, '_'), ...(ownEntry(IMPORT_NAMES, n) ?? [])].map((x) => x.toLowerCase()));
  if (n.startsWith('python-')) names.add(n.slice('python-'.length).replace(/-/g, '_'));
  if (n.startsWith('django-')) names.add(n.replace(/-/g, '_'));
  if (extra !== undefined && extra !== '') names.add(extra.toLowerCase());
  return [...names];
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'venv', '.venv', '__pycache__', 'site-packages', '.tox', '.mypy_cache', 'build', 'dist']);
export const MAX_SOURCE_FILES = 50_000;
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** Python files under the given paths (inside the repository; symbolic links not followed). */
function pythonFiles(repo: string, srcs: readonly string[]): string[] {
  const root = realpathSync(repo);
  const out: string[] = [];
  const walk = (abs: string): void => {
    if (out.length >= MAX_SOURCE_FILES) return;
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      for (const e of readdirSync(abs).sort()) if (!SKIP_DIRS.has(e)) walk(path.join(abs, e));
    } else if (st.isFile() && (abs.endsWith('.py') || abs.endsWith('.pyw')) && st.size <= MAX_SOURCE_BYTES) out.push(abs);
  };
  for (const s of srcs) {
    if (!safeRelpath(s)) throw new VitrineError('validation_failed', 'a source path must be a safe relative path inside the repository');
    const abs = path.join(root, s);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      throw new VitrineError('bad_request', 'a source path does not exist in the repository');
    }
    if (real !== root && !real.startsWith(`${root}${path.sep}`)) throw new VitrineError('validation_failed', 'a source path leads outside the repository');
    walk(real);
  }
  return out;
}

const IMPORT = /^\s*import\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)/;
const FROM = /^\s*from\s+([A-Za-z_][\w.]*)\s+import\b/;
const DYNAMIC = /(?:import_module|__import__)\(\s*['"]([A-Za-z_][\w.]*)['"]/g;
const DOTTED_STRING = /['"]([A-Za-z_]\w*(?:\.\w+)+)['"]/g;

// The two comment readers below answer what /#\s*via\s+(.+)$/ (its group) and /^\s+#\s*(.*)$/ (its group) answered,
// in one pass: the patterns retried every split of a blank run when a line terminator (a lone \r) followed it.

/** The text after the first `# via ` on a requirement line (pip-compile's inline form). */
export function inlineVia(line: string): string | undefined {
  const last = lastLineTerminator(line);
  for (let h = line.indexOf('#'); h >= 0; h = line.indexOf('#', h + 1)) {
    const v = skipRegexBlanks(line, h + 1);
    if (!line.startsWith('via', v)) continue;
    const blanks = skipRegexBlanks(line, v + 3);
    if (blanks === v + 3) continue;
    if (blanks < line.length) {
      if (blanks > last) return line.slice(blanks);
      continue;
    }
    // Blanks to the end: the pattern leaves the last one to its group.
    if (blanks - (v + 3) >= 2 && line.length - 1 > last) return line.slice(line.length - 1);
  }
  return undefined;
}

/** The text of an indented comment line (`    # via x`), without the blanks after its `#`. */
export function indentedComment(line: string): string | undefined {
  const hash = skipRegexBlanks(line, 0);
  if (hash === 0 || line.charAt(hash) !== '#') return undefined;
  const body = skipRegexBlanks(line, hash + 1);
  return body > lastLineTerminator(line) ? line.slice(body) : undefined;
}

/** Top-level modules a Python source imports, and those its dotted strings reference. */
export function modulesOf(text: string): { imported: Set<string>; referenced: Set<string> } {
  const imported = new Set<string>();
  const referenced = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const code = stripHashComment(line);
    const m = IMPORT.exec(code);
    if (m) for (const part of (m[1] as string).split(',')) imported.add((part.trim().split(/[.\s]/)[0] as string).toLowerCase());
    const f = FROM.exec(code);
    if (f) imported.add(((f[1] as string).split('.')[0] as string).toLowerCase());
    for (const d of code.matchAll(DYNAMIC)) imported.add(((d[1] as string).split('.')[0] as string).toLowerCase());
    for (const s of code.matchAll(DOTTED_STRING)) referenced.add(((s[1] as string).split('.')[0] as string).toLowerCase());
  }
  return { imported, referenced };
}

/** pip-compile `# via` annotations: distribution to the distributions that need it (`-r file` entries are direct). */
function viaEdges(text: string): Map<string, Set<string>> {
  const via = new Map<string, Set<string>>();
  let current: string | null = null;
  let inVia = false;
  const add = (child: string, parent: string): void => {
    const p = parent.trim();
    if (p === '' || p.startsWith('-r') || p.startsWith('-c')) return;
    let set = via.get(child);
    if (set === undefined) via.set(child, (set = new Set()));
    set.add(pep503(p.split(/[\s[]/)[0] as string));
  };
  for (const line of text.split(/\r?\n/)) {
    const req = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\]\s*)?==/.exec(line);
    if (req) {
      current = pep503(req[1] as string);
      inVia = false;
      const inline = inlineVia(line);
      if (inline !== undefined && current !== null) for (const p of inline.split(',')) add(current, p);
      continue;
    }
    const comment = indentedComment(line);
    if (comment !== undefined && current !== null) {
      const body = comment.trim();
      if (/^via\b/.test(body)) {
        inVia = true;
        const rest = body.slice(3).trim();
        if (rest !== '') add(current, rest);
      } else if (inVia) add(current, body);
      continue;
    }
    if (line.trim() === '' || !line.startsWith(' ')) inVia = false;
  }
  return via;
}

/** Builds the report: declared distributions of the manifest against the modules the sources import. */
export function staticReachability(repo: string, srcs: readonly string[], manifest: string): ReachReport {
  if (!safeRelpath(manifest)) throw new VitrineError('validation_failed', 'the manifest must be a safe relative path inside the repository');
  let text: string;
  try {
    text = readFileSync(path.join(repo, manifest), 'utf8');
  } catch {
    throw new VitrineError('bad_request', 'the reachability manifest cannot be read');
  }
  const entries = parseManifestEntries(manifest, text);
  const declared = new Set(entries.map((e) => pep503(e.name)));
  const needs = viaEdges(text);
  for (const e of entries) for (const d of e.dependencies ?? []) {
    let set = needs.get(pep503(d));
    if (set === undefined) needs.set(pep503(d), (set = new Set()));
    set.add(pep503(e.name));
  }
  const imported = new Map<string, string>();
  const referenced = new Map<string, string>();
  const files = pythonFiles(repo, srcs);
  for (const file of files) {
    const rel = path.relative(realpathSync(repo), file).split(path.sep).join('/');
    const mods = modulesOf(readFileSync(file, 'utf8'));
    for (const m of mods.imported) if (!imported.has(m)) imported.set(m, rel);
    for (const m of mods.referenced) if (!referenced.has(m)) referenced.set(m, rel);
  }
  const status = new Map<string, ReachStatus>();
  const evidence = new Map<string, string>();
  for (const dist of declared) {
    const names = importNamesOf(dist);
    const imp = names.find((n) => imported.has(n));
    const ref = names.find((n) => referenced.has(n));
    if (imp !== undefined) {
      status.set(dist, 'imported');
      evidence.set(dist, `${imp} imported in ${imported.get(imp) ?? ''}`);
    } else if (ref !== undefined) {
      status.set(dist, 'referenced');
      evidence.set(dist, `${ref} named in a string in ${referenced.get(ref) ?? ''}`);
    } else status.set(dist, 'unreached');
  }
  // Needed by a reachable distribution: reachable too (to a fixed point).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [dist, st] of status) {
      if (st !== 'unreached') continue;
      const parent = [...(needs.get(dist) ?? [])].sort().find((p) => (status.get(p) ?? 'unreached') !== 'unreached');
      if (parent !== undefined) {
        status.set(dist, 'transitive');
        evidence.set(dist, `needed by ${parent}`);
        changed = true;
      }
    }
  }
  for (const [dist, st] of status) if (st === 'unreached') evidence.set(dist, `no import of ${importNamesOf(dist).join(' or ')} in ${files.length} source file${files.length === 1 ? '' : 's'}`);
  return { status, evidence, filesScanned: files.length };
}

/**
 * Fills reachability of pypi scanner findings from the report where runtime facts left it unknown (runtime wins).
 * Returns how many findings it decided.
 */
export function enrichStaticReachability(res: CollectResult, report: ReachReport): number {
  let n = 0;
  for (const f of res.graph.findings) {
    const node = res.graph.nodes.get(f.nodeId);
    if (node?.kind !== 'dependency' || !SCANNERS.includes(f.source) || f.reachable !== null || node.attrs['ecosystem'] !== 'pypi') continue;
    const dist = pep503(String(node.attrs['name'] ?? ''));
    const st = report.status.get(dist);
    if (st === undefined) continue;
    f.reachable = st !== 'unreached';
    f.evidence.push(`static: ${st}: ${report.evidence.get(dist) ?? ''}`);
    n++;
  }
  return n;
}
