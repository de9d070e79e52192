// pip requirements files: PEP 508 lines with pip's options, continuations, comments, markers, extras and --hash.
import { ParseContext, pep503, splitLines } from './context.js';
import type { DeclaredRequirement, ManifestInclude, ManifestOption, ParseOptions } from './types.js';
import { trimEndChars } from '../linear-text.js';

/** One logical line (continuations joined) and where each of its characters came from. */
interface LogicalLine {
  readonly text: string;
  /** Physical 0-based line of the first character of each joined segment, with the segment's offset in `text`. */
  readonly segments: readonly { readonly offset: number; readonly line: number }[];
}

export interface RequirementsResult {
  readonly requirements: DeclaredRequirement[];
  readonly includes: ManifestInclude[];
  readonly options: ManifestOption[];
}

/** pip options that stand alone on a line, with whether they take a value. */
const GLOBAL_OPTIONS: ReadonlyMap<string, boolean> = new Map([
  ['-i', true],
  ['--index-url', true],
  ['--extra-index-url', true],
  ['--no-index', false],
  ['-f', true],
  ['--find-links', true],
  ['--trusted-host', true],
  ['--pre', false],
  ['--prefer-binary', false],
  ['--require-hashes', false],
  ['--only-binary', true],
  ['--no-binary', true],
  ['--use-feature', true],
  ['-Z', false],
  ['--always-unzip', false],
]);

const INCLUDE_OPTIONS: ReadonlyMap<string, ManifestInclude['kind']> = new Map([
  ['-r', 'requirements'],
  ['--requirement', 'requirements'],
  ['-c', 'constraints'],
  ['--constraint', 'constraints'],
]);

/** Options allowed after a requirement on the same line. */
const PER_REQUIREMENT_OPTIONS = new Set(['--hash', '--global-option', '--install-option', '--config-settings', '-C']);

const COMMENT_START = /^\s*#/;
const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/;
const CLAUSE = /^(~=|===|==|!=|<=|>=|<|>)([A-Za-z0-9.*+!_-]+)$/;
const URL_LIKE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|git\+|hg\+|svn\+|bzr\+|file:)/;

/** Joins `\` continuations the way pip does (a comment line never continues) and keeps a map to physical lines. */
function logicalLines(text: string): LogicalLine[] {
  const out: LogicalLine[] = [];
  let parts: string[] = [];
  let segments: { offset: number; line: number }[] = [];
  let length = 0;
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const isComment = COMMENT_START.test(raw);
    if (raw.endsWith('\\') && !isComment) {
      const piece = trimEndChars(raw, '\\');
      segments.push({ offset: length, line: i });
      parts.push(piece);
      length += piece.length;
      continue;
    }
    segments.push({ offset: length, line: i });
    // pip prefixes a comment line ending a continuation with a space so the comment rule still removes it
    const piece = isComment && parts.length > 0 ? ` ${raw}` : raw;
    parts.push(piece);
    out.push({ text: parts.join(''), segments });
    parts = [];
    segments = [];
    length = 0;
  }
  if (parts.length > 0) out.push({ text: parts.join(''), segments });
  return out;
}

function physicalLine(ll: LogicalLine, offset: number): number {
  let line = ll.segments[0]?.line ?? 0;
  for (const s of ll.segments) {
    if (s.offset <= offset) line = s.line;
    else break;
  }
  return line;
}

/** Removes a comment: `#` at the start or after whitespace (pip's rule), so `#egg=` in URLs survives. */
function stripComment(text: string): string {
  const m = /(^|\s)#/.exec(text);
  return m === null ? text : text.slice(0, m.index);
}

interface Token {
  readonly text: string;
  readonly offset: number;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ text: m[0], offset: m.index });
  return out;
}

/** Splits `--opt=value` or `--opt value` at tokens[i]; returns the option, its value and how many tokens it used. */
function optionAt(toks: readonly Token[], i: number, takesValue: (o: string) => boolean): { option: string; value?: string; used: number } {
  const t = toks[i]?.text ?? '';
  const eq = t.indexOf('=');
  if (t.startsWith('--') && eq > 0) return { option: t.slice(0, eq), value: t.slice(eq + 1), used: 1 };
  // short options may be glued to their value (`-rbase.txt`)
  if (!t.startsWith('--') && t.length > 2) return { option: t.slice(0, 2), value: t.slice(2), used: 1 };
  if (takesValue(t)) {
    const v = toks[i + 1]?.text;
    return v === undefined ? { option: t, used: 1 } : { option: t, value: v, used: 2 };
  }
  return { option: t, used: 1 };
}

/** `#egg=name` fragment of a URL or path, the only place such a line names its package. */
function eggName(url: string): string | undefined {
  const m = /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(url);
  return m?.[1];
}

function isPathLike(s: string): boolean {
  if (/["']/.test(s)) return false;
  return s.startsWith('.') || s.startsWith('/') || s.includes('\\') || /\.(whl|zip|tar\.gz|tgz|tar\.bz2)$/i.test(s) || /^[A-Za-z]:[\\/]/.test(s);
}

/** Parses the requirement part of a line (before per-requirement options); `base` is its offset in the logical line. */
function parseRequirement(
  ll: LogicalLine,
  req: string,
  base: number,
  hashes: readonly string[],
  ctx: ParseContext,
): DeclaredRequirement | undefined {
  const startLine = physicalLine(ll, base);
  const withHashes = hashes.length > 0 ? { hashes } : {};
  const trimmed = req.trim();
  if (URL_LIKE.test(trimmed) || isPathLike(trimmed)) {
    const semi = trimmed.search(/\s;/);
    const url = semi === -1 ? trimmed : trimmed.slice(0, semi);
    const marker = semi === -1 ? undefined : trimmed.slice(semi).replace(/^\s*;\s*/, '').trim();
    const egg = eggName(url);
    return {
      ...(egg !== undefined ? { name: pep503(egg), rawName: egg } : {}),
      specifier: '',
      kind: URL_LIKE.test(trimmed) ? 'url' : 'path',
      url,
      ...(marker ? { marker } : {}),
      ...withHashes,
      line: startLine,
      keyLine: startLine,
    };
  }
  const nameMatch = NAME.exec(trimmed);
  if (nameMatch === null) {
    ctx.warn('unparsed_line', 'a line is neither a requirement nor a known option', startLine);
    return undefined;
  }
  const rawName = nameMatch[1] ?? '';
  const lead = req.length - req.trimStart().length;
  const nameOffset = base + lead;
  let rest = trimmed.slice(rawName.length);
  let restOffset = nameOffset + rawName.length;
  let extras: string[] | undefined;
  const extrasMatch = /^\s*\[([^\]]*)\]/.exec(rest);
  if (extrasMatch !== null) {
    extras = (extrasMatch[1] ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '')
      .map(pep503);
    rest = rest.slice(extrasMatch[0].length);
    restOffset += extrasMatch[0].length;
  } else if (/^\s*\[/.test(rest)) {
    ctx.warn('unparsed_line', 'a requirement has an unclosed extras bracket', startLine);
    return undefined;
  }
  const name = pep503(rawName);
  const named = { name, ...(name !== rawName ? { rawName } : {}), ...(extras && extras.length > 0 ? { extras } : {}) };
  if (/^\s*@/.test(rest)) {
    const after = rest.replace(/^\s*@\s*/, '');
    const semi = after.search(/\s;/);
    const url = (semi === -1 ? after : after.slice(0, semi)).trim();
    const marker = semi === -1 ? undefined : after.slice(semi).replace(/^\s*;\s*/, '').trim();
    return { ...named, specifier: '', kind: 'url', url, ...(marker ? { marker } : {}), ...withHashes, line: startLine, keyLine: startLine };
  }
  const semi = rest.indexOf(';');
  const specRaw = semi === -1 ? rest : rest.slice(0, semi);
  const marker = semi === -1 ? undefined : rest.slice(semi + 1).trim();
  let spec = specRaw.replace(/\s+/g, '');
  if (spec.startsWith('(') && spec.endsWith(')')) spec = spec.slice(1, -1);
  let pinnedVersion: string | undefined;
  let pinOperator: string | undefined;
  if (spec !== '') {
    for (const clause of spec.split(',')) {
      const m = CLAUSE.exec(clause);
      if (m === null) {
        ctx.warn('unparsed_line', 'a requirement has a version specifier that is not PEP 440', startLine);
        return undefined;
      }
      const op = m[1] ?? '';
      const v = m[2] ?? '';
      if (pinnedVersion === undefined && (op === '===' || (op === '==' && !v.includes('*')))) {
        pinnedVersion = v;
        pinOperator = op;
      }
    }
  }
  let versionLine = physicalLine(ll, nameOffset);
  if (pinOperator !== undefined && pinnedVersion !== undefined) {
    // the version's own position decides its line, which differs from the name's across a continuation
    const opAt = specRaw.indexOf(pinOperator);
    const vAt = opAt === -1 ? -1 : specRaw.indexOf(pinnedVersion.charAt(0), opAt + pinOperator.length);
    if (vAt !== -1) versionLine = physicalLine(ll, restOffset + vAt);
  }
  return {
    ...named,
    specifier: spec,
    ...(pinnedVersion !== undefined ? { pinnedVersion } : {}),
    kind: 'name',
    ...(marker ? { marker } : {}),
    ...withHashes,
    // `line` of a declared requirement is where the version sits (where the name sits when unpinned)
    line: pinnedVersion !== undefined ? versionLine : physicalLine(ll, nameOffset),
    keyLine: physicalLine(ll, nameOffset),
  };
}

/** Reads a requirements file into its requirement lines, includes, options and pinned entries. */
export function parseRequirements(text: string, options: ParseOptions = {}): RequirementsResult & { ctx: ParseContext } {
  const ctx = new ParseContext(options);
  const requirements: DeclaredRequirement[] = [];
  const includes: ManifestInclude[] = [];
  const opts: ManifestOption[] = [];
  for (const ll of logicalLines(text)) {
    const body = stripComment(ll.text);
    if (body.trim() === '') continue;
    const toks = tokens(body);
    const first = toks[0];
    if (first === undefined) continue;
    const line = physicalLine(ll, first.offset);
    if (first.text.startsWith('-')) {
      const takes = (o: string): boolean =>
        INCLUDE_OPTIONS.has(o) || GLOBAL_OPTIONS.get(o) === true || o === '-e' || o === '--editable';
      const { option, value } = optionAt(toks, 0, takes);
      const include = INCLUDE_OPTIONS.get(option);
      if (include !== undefined) {
        if (value === undefined) ctx.warn('unparsed_line', 'an include option has no file name', line);
        else includes.push({ kind: include, target: value, line });
        continue;
      }
      if (option === '-e' || option === '--editable') {
        if (value === undefined) {
          ctx.warn('unparsed_line', 'an editable option has no target', line);
          continue;
        }
        const egg = eggName(value);
        requirements.push({
          ...(egg !== undefined ? { name: pep503(egg), rawName: egg } : {}),
          specifier: '',
          kind: 'editable',
          url: value,
          line,
          keyLine: line,
        });
        continue;
      }
      if (GLOBAL_OPTIONS.has(option)) {
        opts.push(value === undefined ? { option, line } : { option, value, line });
        continue;
      }
      ctx.warn('unknown_option', 'an option line is not a pip option this parser knows', line);
      continue;
    }
    // the requirement runs until the first option token; what follows are per-requirement options
    let reqEnd = toks.length;
    for (let i = 1; i < toks.length; i++) {
      if ((toks[i]?.text ?? '').startsWith('-')) {
        reqEnd = i;
        break;
      }
    }
    const lastReqTok = toks[reqEnd - 1];
    const reqText = body.slice(first.offset, lastReqTok === undefined ? body.length : lastReqTok.offset + lastReqTok.text.length);
    const hashes: string[] = [];
    let bad = false;
    for (let i = reqEnd; i < toks.length; ) {
      const { option, value, used } = optionAt(toks, i, (o) => PER_REQUIREMENT_OPTIONS.has(o));
      if (!PER_REQUIREMENT_OPTIONS.has(option)) {
        ctx.warn('unknown_option', 'a requirement carries an option this parser does not know', line);
        bad = true;
        break;
      }
      if (option === '--hash' && value !== undefined) hashes.push(value);
      i += used;
    }
    if (bad) continue;
    const req = parseRequirement(ll, reqText, first.offset, hashes, ctx);
    if (req !== undefined) requirements.push(req);
  }
  for (const r of requirements) {
    if (r.kind !== 'name' || r.name === undefined || r.pinnedVersion === undefined) continue;
    ctx.add({
      name: r.name,
      version: r.pinnedVersion,
      line: r.line,
      keyLine: r.keyLine,
      ...(r.rawName !== undefined ? { rawName: r.rawName } : {}),
      source: 'registry',
      ...(r.hashes !== undefined ? { checksums: r.hashes } : {}),
      ...(r.marker !== undefined ? { marker: r.marker } : {}),
      ...(r.extras !== undefined ? { extras: r.extras } : {}),
    });
  }
  return { requirements, includes, options: opts, ctx };
}
