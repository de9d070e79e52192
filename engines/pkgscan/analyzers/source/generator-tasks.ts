// A project template's tasks that its generator runs once the files are written: Copier's `_tasks` in `copier.yml`
// (strings, or maps with a `command` string or list, run by the user's shell when `copier copy` or `run_copy(...,
// unsafe=True)` renders the template). Their command lines are read as the shell commands they are; Cookiecutter's
// hooks are Python files and are read as Python already.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** A Copier template's questions file, anywhere in the release (a template package keeps its template in a folder). */
export const COPIER_FILE = /(?:^|\/)copier\.ya?ml$/;
const MAX_TASKS = 50;

export interface GeneratorTask {
  /** The command line, a list's items joined with spaces. */
  readonly command: string;
  /** Zero-based line of the command in the file. */
  readonly line: number;
}

function lineOf(node: Node, lines: LineCounter): number {
  const at = node.range?.[0];
  return at === undefined ? 0 : lines.linePos(at).line - 1;
}

/** The command of one task entry: a string, a list of strings, or a map's `command` given either way. */
function commandOf(node: Node | null | undefined): { text: string; node: Node } | null {
  if (!node) return null;
  if (isScalar(node)) return typeof node.value === 'string' && node.value.trim() !== '' ? { text: node.value, node } : null;
  if (isSeq(node)) {
    const parts = node.items.flatMap((i) => (isScalar(i) && (typeof i.value === 'string' || typeof i.value === 'number') ? [String(i.value)] : []));
    return parts.length > 0 ? { text: parts.join(' '), node } : null;
  }
  if (isMap(node)) return commandOf(node.get('command', true) as Node | undefined);
  return null;
}

/** The command lines of a Copier template's `_tasks`, each with its line; none for text that is not such a file or does not parse. */
export function copierTaskCommands(text: string): GeneratorTask[] {
  if (!text.includes('_tasks')) return [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [];
  const tasks = doc.contents.get('_tasks', true);
  if (!isSeq(tasks)) return [];
  const out: GeneratorTask[] = [];
  for (const item of tasks.items.slice(0, MAX_TASKS)) {
    const c = commandOf(item as Node);
    if (c !== null) out.push({ command: c.text, line: lineOf(c.node, lines) });
  }
  return out;
}
