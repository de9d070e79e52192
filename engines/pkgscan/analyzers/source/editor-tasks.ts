// VS Code tasks a project ships that run when its folder is opened (`"runOptions": { "runOn": "folderOpen" }` in
// `.vscode/tasks.json`): opening the project runs them, with no install and no command typed, once automatic tasks
// are allowed. Their command lines are read as the shell commands they are, as an install hook's are.

/** A shipped task file. */
export const TASKS_FILE = /(?:^|\/)\.vscode\/tasks\.json$/;
const MAX_TASKS = 50;

export interface FolderOpenCommand {
  /** The command line, its arguments joined after it. */
  readonly command: string;
  /** Zero-based line of the task's command in the file. */
  readonly line: number;
}

/** JSON with comments (as VS Code reads tasks.json): comments outside strings blanked, trailing commas dropped. */
function jsonc(text: string): string {
  let out = '';
  let quote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote) {
      out += c;
      if (c === '\\') {
        out += text.charAt(i + 1);
        i++;
      } else if (c === '"') quote = false;
      continue;
    }
    if (c === '"') quote = true;
    if (c === '/' && text.charAt(i + 1) === '/') {
      while (i < text.length && text.charAt(i) !== '\n') i++;
      out += '\n';
      continue;
    }
    if (c === '/' && text.charAt(i + 1) === '*') {
      const end = text.indexOf('*/', i + 2);
      const skipped = text.slice(i, end === -1 ? text.length : end + 2);
      out += skipped.replace(/[^\n]/g, ' ');
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The command line of a task (or of its per-platform part): `command` with its `args`. */
function commandOf(task: Record<string, unknown>): string | null {
  const command = task['command'];
  if (typeof command !== 'string' || command.trim() === '') return null;
  const args = Array.isArray(task['args']) ? task['args'].map((a) => (typeof a === 'string' ? a : isRecord(a) && typeof a['value'] === 'string' ? a['value'] : '')).filter((a) => a !== '') : [];
  return [command, ...args].join(' ');
}

/** The command lines of the tasks a shipped tasks.json runs on folder open, each with its line; none for text that is not such a file. */
export function folderOpenCommands(text: string): FolderOpenCommand[] {
  if (!text.includes('folderOpen')) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(jsonc(text));
  } catch {
    return [];
  }
  const tasks = isRecord(doc) && Array.isArray(doc['tasks']) ? doc['tasks'].slice(0, MAX_TASKS) : [];
  const out: FolderOpenCommand[] = [];
  for (const task of tasks) {
    if (!isRecord(task)) continue;
    const run = task['runOptions'];
    if (!isRecord(run) || run['runOn'] !== 'folderOpen') continue;
    for (const part of [task, task['windows'], task['osx'], task['linux']]) {
      if (!isRecord(part)) continue;
      const command = commandOf(part);
      if (command === null) continue;
      const at = text.indexOf(JSON.stringify(part['command']).slice(1, 21));
      out.push({ command, line: at === -1 ? 0 : text.slice(0, at).split('\n').length - 1 });
    }
  }
  return out;
}
