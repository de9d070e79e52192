// The Sigma condition grammar: and/or/not, parentheses, `N of pattern`, `all of them`, parsed to a small tree.
import { UnsupportedRule } from './value.js';

export type ConditionNode =
  | { readonly op: 'id'; readonly name: string }
  | { readonly op: 'and' | 'or'; readonly args: readonly ConditionNode[] }
  | { readonly op: 'not'; readonly arg: ConditionNode }
  | { readonly op: 'of'; readonly count: number | 'all'; readonly names: readonly string[] };

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
  const toks = tokenize(text);
  let i = 0;
  const peek = (): string | undefined => toks[i];
  const lower = (): string | undefined => toks[i]?.toLowerCase();

  const expr = (): ConditionNode => {
    const args = [and()];
    while (lower() === 'or') {
      i++;
      args.push(and());
    }
    return args.length === 1 ? (args[0] as ConditionNode) : { op: 'or', args };
  };
  const and = (): ConditionNode => {
    const args = [not()];
    while (lower() === 'and') {
      i++;
      args.push(not());
    }
    return args.length === 1 ? (args[0] as ConditionNode) : { op: 'and', args };
  };
  const not = (): ConditionNode => {
    if (lower() === 'not') {
      i++;
      return { op: 'not', arg: not() };
    }
    return primary();
  };
  const primary = (): ConditionNode => {
    const t = peek();
    if (t === undefined) throw new UnsupportedRule('the condition ends too early');
    if (t === '(') {
      i++;
      const e = expr();
      if (peek() !== ')') throw new UnsupportedRule('the condition has an unclosed parenthesis');
      i++;
      return e;
    }
    if (t === '|') throw new UnsupportedRule('the condition uses an aggregation (| count/near), which needs a correlation rule');
    const l = t.toLowerCase();
    if (toks[i + 1]?.toLowerCase() === 'of' && (l === 'all' || l === 'any' || /^\d+$/.test(l))) {
      i += 2;
      const target = peek();
      if (target === undefined) throw new UnsupportedRule('the condition ends after "of"');
      i++;
      const names = target.toLowerCase() === 'them' ? identifiers.filter((n) => !n.startsWith('_')) : identifiers.filter((n) => globToRe(target).test(n));
      if (names.length === 0) throw new UnsupportedRule('a "1 of" pattern names no search identifier');
      return { op: 'of', count: l === 'all' ? 'all' : l === 'any' ? 1 : Number(l), names };
    }
    if (['and', 'or', ')', 'of', 'near'].includes(l)) throw new UnsupportedRule(`the condition has "${l}" where an identifier belongs`);
    if (!identifiers.includes(t)) throw new UnsupportedRule('the condition names a search identifier the detection does not define');
    i++;
    return { op: 'id', name: t };
  };

  const tree = expr();
  if (i < toks.length) throw new UnsupportedRule(toks[i] === '|' ? 'the condition uses an aggregation (| count/near), which needs a correlation rule' : 'the condition has extra words after the expression');
  return tree;
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
