// TOML lock files (poetry.lock, uv.lock, Cargo.lock): values from smol-toml, lines of each [[package]] from a line scan.
import { parse as parseToml } from 'smol-toml';
import { isRecord, parseError, splitLines, str, versionString } from './context.js';
import type { ParseContext } from './context.js';
import { lastLineTerminator, skipRegexBlanks } from '../linear-text.js';

/** Lines of one [[package]] block: its header, and its own `name` and `version` keys (not a subtable's). */
export interface PackageBlockLines {
  readonly header: number;
  readonly name?: number;
  readonly version?: number;
}

export interface TomlLock {
  readonly root: Record<string, unknown>;
  readonly packages: readonly unknown[];
  /** Lines per package, index-aligned with `packages`; undefined when the scan and the parse disagree. */
  readonly lines: readonly PackageBlockLines[] | undefined;
}

const PACKAGE_HEADER = /^\s*\[\[\s*package\s*\]\]\s*(?:#.*)?$/;
const TABLE_HEADER = /^\s*\[\[?\s*([^\]\s]+)\s*\]\]?\s*(?:#.*)?$/;
/**
 * A `name = ...` or `version = ...` line: the key and the text after the blanks that follow `=`, as
 * /^\s*(name|version)\s*=\s*(.*)$/ answered, in one pass (the pattern retried every split of the blanks after `=`
 * when a lone line terminator came later).
 */
export function keyLine(line: string): [key: 'name' | 'version', rest: string] | undefined {
  const at = skipRegexBlanks(line, 0);
  const key = line.startsWith('name', at) ? 'name' : line.startsWith('version', at) ? 'version' : undefined;
  if (key === undefined) return undefined;
  const eq = skipRegexBlanks(line, at + key.length);
  if (line.charAt(eq) !== '=') return undefined;
  const rest = skipRegexBlanks(line, eq + 1);
  return rest > lastLineTerminator(line) ? [key, line.slice(rest)] : undefined;
}

/** The string a TOML scalar on a line spells, for checking the scan against the parse (basic or literal string). */
function scalarOnLine(rest: string): string | undefined {
  const m = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(rest.trim());
  // a bare scalar (a number where a version string belongs) is compared as written
  if (m === null) return /^([^\s#]+)/.exec(rest.trim())?.[1];
  if (m[2] !== undefined) return m[2];
  try {
    return JSON.parse(`"${m[1] ?? ''}"`) as string;
  } catch {
    return undefined;
  }
}

function scanBlocks(text: string): { header: number; name?: number; version?: number; nameText?: string; versionText?: string }[] {
  const blocks: { header: number; name?: number; version?: number; nameText?: string; versionText?: string }[] = [];
  let current: (typeof blocks)[number] | undefined;
  let inSubtable = false;
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (PACKAGE_HEADER.test(l)) {
      current = { header: i };
      blocks.push(current);
      inSubtable = false;
      continue;
    }
    const t = TABLE_HEADER.exec(l);
    if (t !== null) {
      const tableName = t[1] ?? '';
      if (current !== undefined && tableName.startsWith('package.')) inSubtable = true;
      else current = undefined;
      continue;
    }
    if (current === undefined || inSubtable) continue;
    const k = keyLine(l);
    if (k === undefined) continue;
    const [which, rest] = k;
    const value = scalarOnLine(rest);
    if (which === 'name' && current.name === undefined) {
      current.name = i;
      if (value !== undefined) current.nameText = value;
    } else if (which === 'version' && current.version === undefined) {
      current.version = i;
      if (value !== undefined) current.versionText = value;
    }
  }
  return blocks;
}

/** Parses a TOML lock file and aligns each [[package]] with its lines; a disagreement drops the line map with a warning. */
export function readTomlLock(text: string, ctx: ParseContext): TomlLock {
  let root: unknown;
  try {
    root = parseToml(text);
  } catch {
    throw parseError('the TOML document is malformed');
  }
  if (!isRecord(root)) throw parseError('the TOML document is not a table');
  const pk = root['package'];
  if (pk !== undefined && !Array.isArray(pk)) throw parseError('the package key is not an array of tables');
  const packages: unknown[] = Array.isArray(pk) ? pk : [];
  const blocks = scanBlocks(text);
  let lines: PackageBlockLines[] | undefined = blocks.map((b) => ({
    header: b.header,
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.version !== undefined ? { version: b.version } : {}),
  }));
  let agree = blocks.length === packages.length;
  for (let i = 0; agree && i < packages.length; i++) {
    const p = packages[i];
    const b = blocks[i];
    if (!isRecord(p) || b === undefined) continue;
    const name = str(p['name']);
    const version = versionString(p['version']);
    if ((name !== undefined && b.nameText !== name) || (version !== undefined && b.versionText !== version)) agree = false;
  }
  if (!agree) {
    lines = undefined;
    ctx.warn('line_map_unavailable', 'the package tables could not be matched to lines; entries carry no lines');
  }
  return { root, packages, lines };
}

/** The line fields of an entry from its block, when the block and the value both exist. */
function lineFields(lines: readonly PackageBlockLines[] | undefined, i: number): { line?: number; keyLine?: number } {
  const b = lines?.[i];
  if (b === undefined) return {};
  const keyLine = b.name ?? b.header;
  return { keyLine, line: b.version ?? keyLine };
}

/**
 * Each [[package]] of the lock that is a table, in file order, with its entry's line fields; one that is not a table
 * is passed over with a `malformed_entry` warning.
 */
export function forEachPackageTable(lock: TomlLock, ctx: ParseContext, fn: (p: Record<string, unknown>, at: { line?: number; keyLine?: number }) => void): void {
  lock.packages.forEach((p, i) => {
    const at = lineFields(lock.lines, i);
    if (!isRecord(p)) {
      ctx.warn('malformed_entry', 'a package table is not a table', at.keyLine);
      return;
    }
    fn(p, at);
  });
}
