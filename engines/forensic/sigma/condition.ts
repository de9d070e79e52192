// The Sigma condition grammar: and/or/not, parentheses, `N of pattern`, `all of them`, parsed to a small tree.
import { UnsupportedRule } from './value.js';

export type ConditionNode =
  | { readonly op: 'id'; readonly name: string }
  | { readonly op: 'and' | 'or'; readonly args: readonly ConditionNode[] }
  | { readonly op: 'not'; readonly arg: ConditionNode }
  | { readonly op: 'of'; readonly count: number | 'all'; readonly names: readonly string[] };

/**
 * Parentheses and `not` nested at most this deep (real rules nest a few levels); deeper is refused before the
 * descent, and every walk of the tree after it, could run out of stack.
 */
export const MAX_CONDITION_DEPTH = 64;

function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /\s*(\(|\)|\||[^\s()|]+)/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(text)) !== null) {
    out.push(m[1] as string);
    last = re.lastIndex;
  }
  if (text.slice(last).trim() !== '') throw new UnsupportedRule('the condition has characters the grammar does not allow');
  return out;
}

function globToRe(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/**
 * Parses one condition over the rule's search identifiers. `them` stands for every identifier not starting with `_`
 * (spec); a pattern or identifier that names nothing, a pipe (the old aggregation syntax) or `near` is unsupported.
 */
export function parseCondition(text: string, identifiers: readonly string[]): ConditionNode {
  const parser = new ConditionParser(tokenize(text), identifiers);
  const tree = parser.expr();
  const toks = parser.toks;
  if (parser.i < toks.length) throw new UnsupportedRule(toks[parser.i] === '|' ? 'the condition uses an aggregation (| count/near), which needs a correlation rule' : 'the condition has extra words after the expression');
  return tree;
}

/**
 * The recursive descent of parseCondition, as methods rather than closures made per condition (run from source, each
 * named closure costs esbuild's keepNames a name property definition per call).
 */
class ConditionParser {
  i = 0;
  /** Parentheses and `not` open at the token being read. */
  private depth = 0;
  constructor(
    readonly toks: readonly string[],
    private readonly identifiers: readonly string[],
  ) {}

  private peek(): string | undefined {
    return this.toks[this.i];
  }

  private lower(): string | undefined {
    return this.toks[this.i]?.toLowerCase();
  }

  expr(): ConditionNode {
    const args = [this.and()];
    while (this.lower() === 'or') {
      this.i++;
      args.push(this.and());
    }
    return args.length === 1 ? (args[0] as ConditionNode) : { op: 'or', args };
  }

  private and(): ConditionNode {
    const args = [this.not()];
    while (this.lower() === 'and') {
      this.i++;
      args.push(this.not());
    }
    return args.length === 1 ? (args[0] as ConditionNode) : { op: 'and', args };
  }

  private not(): ConditionNode {
    if (this.lower() === 'not') {
      this.i++;
      this.enter();
      const arg = this.not();
      this.depth--;
      return { op: 'not', arg };
    }
    return this.primary();
  }

  private enter(): void {
    if (++this.depth > MAX_CONDITION_DEPTH) throw new UnsupportedRule(`the condition nests more than ${MAX_CONDITION_DEPTH} levels`);
  }

  private primary(): ConditionNode {
    const toks = this.toks;
    const identifiers = this.identifiers;
    const t = this.peek();
    if (t === undefined) throw new UnsupportedRule('the condition ends too early');
    if (t === '(') {
      this.i++;
      this.enter();
      const e = this.expr();
      if (this.peek() !== ')') throw new UnsupportedRule('the condition has an unclosed parenthesis');
      this.i++;
      this.depth--;
      return e;
    }
    if (t === '|') throw new UnsupportedRule('the condition uses an aggregation (| count/near), which needs a correlation rule');
    const l = t.toLowerCase();
    if (toks[this.i + 1]?.toLowerCase() === 'of' && (l === 'all' || l === 'any' || /^\d+$/.test(l))) {
      this.i += 2;
      const target = this.peek();
      if (target === undefined) throw new UnsupportedRule('the condition ends after "of"');
      this.i++;
      const names = target.toLowerCase() === 'them' ? identifiers.filter((n) => !n.startsWith('_')) : identifiers.filter((n) => globToRe(target).test(n));
      if (names.length === 0) throw new UnsupportedRule('a "1 of" pattern names no search identifier');
      return { op: 'of', count: l === 'all' ? 'all' : l === 'any' ? 1 : Number(l), names };
    }
    if (['and', 'or', ')', 'of', 'near'].includes(l)) throw new UnsupportedRule(`the condition has "${l}" where an identifier belongs`);
    if (!identifiers.includes(t)) throw new UnsupportedRule('the condition names a search identifier the detection does not define');
    this.i++;
    return { op: 'id', name: t };
  }
}

/** Evaluates a condition tree, each identifier through `test` (called at most once per identifier per evaluation by the caller's cache). */
export function evaluate(node: ConditionNode, test: (name: string) => boolean): boolean {
  switch (node.op) {
    case 'id':
      return test(node.name);
    case 'and':
      for (const a of node.args) if (!evaluate(a, test)) return false;
      return true;
    case 'or':
      for (const a of node.args) if (evaluate(a, test)) return true;
      return false;
    case 'not':
      return !evaluate(node.arg, test);
    case 'of': {
      if (node.count === 'all') {
        for (const name of node.names) if (!test(name)) return false;
        return true;
      }
      let n = 0;
      for (const name of node.names) if (test(name) && ++n >= (node.count as number)) return true;
      return false;
    }
  }
}

/** The identifiers that made a true condition true, outside any `not` (the matched selections). */
export function positiveHits(node: ConditionNode, test: (name: string) => boolean, out: Set<string>): void {
  switch (node.op) {
    case 'id':
      if (test(node.name)) out.add(node.name);
      return;
    case 'and':
    case 'or':
      for (const a of node.args) if (evaluate(a, test)) positiveHits(a, test, out);
      return;
    case 'not':
      return;
    case 'of':
      for (const n of node.names) if (test(n)) out.add(n);
  }
}
