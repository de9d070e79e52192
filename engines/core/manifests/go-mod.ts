// go.mod: require directives (single lines and blocks) with their `// indirect` marks; other directives are skipped.
import { ParseContext, splitLines } from './context.js';
import { isGoVersion } from './gover.js';
import type { ParseOptions } from './types.js';

export interface GoModResult {
  readonly ctx: ParseContext;
  /** The `go` directive's version, when present. */
  readonly formatVersion?: string;
  /** The module path the file declares. */
  readonly module?: string;
}

const KNOWN_DIRECTIVES = new Set(['module', 'go', 'toolchain', 'require', 'replace', 'exclude', 'retract', 'godebug', 'tool', 'ignore']);

/** Splits a line into its code and its `//` comment; a quoted path may not contain `//` in go.mod, so no quoting rules apply. */
function splitComment(line: string): { code: string; comment: string } {
  const at = line.indexOf('//');
  return at === -1 ? { code: line, comment: '' } : { code: line.slice(0, at), comment: line.slice(at + 2) };
}

function unquote(token: string): string {
  if (token.length >= 2 && ((token.startsWith('"') && token.endsWith('"')) || (token.startsWith('`') && token.endsWith('`')))) return token.slice(1, -1);
  return token;
}

/** `// indirect` or `// indirect; reason`, the marks the go command writes. */
function isIndirect(comment: string): boolean {
  return /^\s*indirect\s*(?:;|$)/.test(comment);
}

/** Reads a go.mod's module path and require directives. */
export function parseGoMod(text: string, options: ParseOptions = {}): GoModResult {
  const ctx = new ParseContext(options);
  let block: string | undefined;
  let module: string | undefined;
  let goVersion: string | undefined;
  const lines = splitLines(text);
  const require = (args: string[], comment: string, line: number): void => {
    const [path, version, ...extra] = args;
    if (path === undefined || version === undefined || extra.length > 0) {
      ctx.warn('unparsed_line', 'a require line does not hold a module path and a version', line);
      return;
    }
    if (!isGoVersion(version)) {
      ctx.warn('malformed_entry', 'a require line holds a version that is not a Go semantic version', line);
      return;
    }
    ctx.add({ name: unquote(path), version, line, keyLine: line, source: 'registry', direct: !isIndirect(comment) });
  };
  for (let i = 0; i < lines.length; i++) {
    const { code, comment } = splitComment(lines[i] ?? '');
    const words = code.trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) continue;
    if (block !== undefined) {
      if (words[0] === ')' && words.length === 1) {
        block = undefined;
        continue;
      }
      if (block === 'require') require(words, comment, i);
      continue;
    }
    const [directive, ...args] = words;
    if (directive === undefined) continue;
    if (!KNOWN_DIRECTIVES.has(directive)) {
      ctx.warn('unparsed_line', 'a line starts with an unknown go.mod directive', i);
      continue;
    }
    if (args.length === 1 && args[0] === '(') {
      block = directive;
      continue;
    }
    if (directive === 'module') module = args[0] === undefined ? undefined : unquote(args[0]);
    else if (directive === 'go') goVersion = args[0];
    else if (directive === 'require') require(args, comment, i);
  }
  if (block !== undefined) ctx.warn('unparsed_line', 'a directive block is not closed before the end of the file');
  return { ctx, ...(goVersion !== undefined ? { formatVersion: goVersion } : {}), ...(module !== undefined ? { module } : {}) };
}
