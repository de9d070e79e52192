/**
 * Finds the regular expressions in TypeScript sources: regex literals and
 * `new RegExp(...)` / `RegExp(...)` calls. A call whose pattern is a string
 * literal (or a template without substitutions) is reported with its source;
 * any other call is reported as dynamic so that a reviewer sees it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface FoundRegex {
  /** Repository-relative path with forward slashes. */
  file: string;
  line: number;
  /** Pattern source, or null for a pattern built at run time. */
  source: string | null;
  flags: string;
  /** Source text of the expression (for dynamic patterns). */
  text: string;
}

const SKIP_FILE = /\.(test|fixture|d)\.tsx?$/;

export function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !SKIP_FILE.test(name)) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  return out;
}

function literalText(node: ts.Expression | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return null;
}

export function extractRegexes(root: string, file: string): FoundRegex[] {
  const text = readFileSync(join(root, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: FoundRegex[] = [];
  const lineOf = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const lit = (node as ts.RegularExpressionLiteral).text;
      const end = lit.lastIndexOf('/');
      out.push({ file, line: lineOf(node), source: lit.slice(1, end), flags: lit.slice(end + 1), text: lit });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const args = node.arguments ?? ts.factory.createNodeArray<ts.Expression>();
      const src = literalText(args[0]);
      const flagArg = args[1];
      const flags = flagArg === undefined ? '' : literalText(flagArg);
      out.push({
        file,
        line: lineOf(node),
        source: src !== null && flags !== null ? src : null,
        flags: flags ?? '',
        text: node.getText(sf).slice(0, 200),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
