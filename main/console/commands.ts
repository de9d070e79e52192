// The completion catalogue: each command line's commands and options, read from its own --help usage table (the
// CLIs export no machine-readable option list), answered in-process by the CLI's main() and parsed once.
import type { ConsoleExecutable } from '../../engines/core/contracts/console.js';
import { EXECUTABLES, cliModuleUrl, type Executable } from './executables.js';

export type { ConsoleCommand, ConsoleExecutable, ConsoleOption } from '../../engines/core/contracts/console.js';

const OPTION = /(?<![\w-])--[a-z][a-z0-9-]*/g;
// Options in a row are parted by a comma or "or" (a name may hold "--", so two names with nothing between them read as
// one: the same text, split one way instead of in exponentially many).
export const OPTION_ROW = /^\s+(--[a-z][a-z0-9-]*(?:(?:,\s*|\s+or\s+)--[a-z][a-z0-9-]*)*(?:,\s*|\s+or\s+)?)\s{2,}(\S.*)$/;

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** Option descriptions from the table rows `  --kind        description`. */
function optionDescriptions(help: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of help.split('\n')) {
    const m = OPTION_ROW.exec(line);
    if (!m) continue;
    for (const name of m[1]!.match(OPTION) ?? []) if (!out.has(name)) out.set(name, m[2]!.trim());
  }
  return out;
}

function options(names: readonly string[], descriptions: Map<string, string>): { name: string; description?: string }[] {
  return unique(names)
    .sort()
    .map((name) => {
      const description = descriptions.get(name);
      return description === undefined ? { name } : { name, description };
    });
}

/**
 * Parses a usage table of the house form: lines `  <tool> <command> ARGS [--opt V]` start a command, the lines
 * indented below them continue it (more options, a summary), and a line at column 0 ends the table.
 * `perCommand` holds a command's own --help text when it has one (petriage), read for more options.
 */
export function parseHelp(tool: string, help: string, perCommand: ReadonlyMap<string, string> = new Map()): ConsoleExecutable {
  const lines = help.split('\n');
  const descriptions = optionDescriptions(help);
  for (const text of perCommand.values()) for (const [k, v] of optionDescriptions(text)) if (!descriptions.has(k)) descriptions.set(k, v);
  const start = new RegExp(`^\\s+${tool.replace(/[^a-z0-9-]/g, '')}(\\s+(.*))?$`);
  const commands = new Map<string, { subcommands: string[]; usage: string[]; summary?: string; options: string[] }>();
  const globals: string[] = ['--help', '--version'];
  let current: { subcommands: string[]; usage: string[]; summary?: string; options: string[] } | undefined;
  let inBlockOfGlobal = false;
  for (const line of lines) {
    const m = start.exec(line);
    if (m) {
      const rest = (m[2] ?? '').trim();
      const word = /^([a-z][a-z0-9-]*)(\s+)?(.*)$/.exec(rest);
      if (word) {
        const name = word[1]!;
        // A summary on the usage line itself sits after a run of spaces; a subcommand after exactly one.
        const after = word[2] === ' ' ? word[3]! : `   ${word[3]!}`;
        const entry = commands.get(name) ?? { subcommands: [], usage: [], options: [] };
        commands.set(name, entry);
        entry.usage.push(line.trim());
        const sub = /^([a-z][a-z0-9-]*)(?:\s|$)/.exec(after);
        if (sub) entry.subcommands.push(sub[1]!);
        entry.options.push(...(after.match(OPTION) ?? []));
        const inline = /(?:^|\S)\s{3,}([A-Za-z].*)$/.exec(after);
        if (inline && entry.summary === undefined) entry.summary = inline[1]!.trim();
        current = entry;
        inBlockOfGlobal = false;
      } else {
        globals.push(...(rest.match(OPTION) ?? []));
        current = undefined;
        inBlockOfGlobal = true;
      }
      continue;
    }
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      // A line at column 0 (a heading, "Exit codes:") ends the command being read.
      current = undefined;
      inBlockOfGlobal = false;
      continue;
    }
    if (current) {
      const trimmed = line.trim();
      if (current.summary === undefined && !trimmed.startsWith('[') && !trimmed.startsWith('--')) current.summary = trimmed;
      current.options.push(...(trimmed.match(OPTION) ?? []));
    } else if (inBlockOfGlobal) {
      globals.push(...(line.match(OPTION) ?? []));
    }
  }
  for (const [name, text] of perCommand) {
    const entry = commands.get(name);
    if (entry) entry.options.push(...(text.match(OPTION) ?? []).filter((o) => o !== '--help'));
  }
  const firstLine = help.split('\n', 1)[0] ?? '';
  return {
    name: tool,
    summary: firstLine.replace(new RegExp(`^${tool}\\s+\\S+:\\s*`), ''),
    options: options(globals, descriptions),
    commands: [...commands].map(([name, c]) => ({
      name,
      subcommands: unique(c.subcommands),
      usage: c.usage,
      ...(c.summary !== undefined ? { summary: c.summary } : {}),
      options: options(c.options, descriptions),
    })),
  };
}

interface CliModule {
  main(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

function isCliModule(value: unknown): value is CliModule {
  return typeof value === 'object' && value !== null && typeof (value as { main?: unknown }).main === 'function';
}

/** One executable's catalogue entry: its `--help`, and each command's own `--help` when it differs (answered before any command runs). */
export async function describeExecutable(name: Executable, load: (url: string) => Promise<unknown> = (url) => import(url)): Promise<ConsoleExecutable> {
  const mod = await load(cliModuleUrl(name));
  if (!isCliModule(mod)) return { name, summary: '', options: [], commands: [] };
  const main = await mod.main(['--help']);
  const first = parseHelp(name, main.stdout);
  const perCommand = new Map<string, string>();
  for (const c of first.commands) {
    const own = await mod.main([c.name, '--help']);
    if (own.code === 0 && own.stdout !== main.stdout) perCommand.set(c.name, own.stdout);
  }
  return perCommand.size === 0 ? first : parseHelp(name, main.stdout, perCommand);
}

let catalogue: Promise<ConsoleExecutable[]> | undefined;

/** Every executable's entry, built once per process; an executable whose help cannot be read is listed without commands. */
export function consoleCatalogue(): Promise<ConsoleExecutable[]> {
  catalogue ??= Promise.all(
    EXECUTABLES.map((name) => describeExecutable(name).catch((): ConsoleExecutable => ({ name, summary: '', options: [], commands: [] }))),
  );
  return catalogue;
}
