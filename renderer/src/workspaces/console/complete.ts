// Tab completion from the catalogue the gateway reads off each command line's own help: executables, commands,
// subcommands and options. Paths are not completed (the renderer cannot list folders).
import type { ConsoleExecutable } from '../../../../engines/core/contracts/console';
import { tokenise } from './tokenise';

/** The console's own words, completed like the executables. */
export const BUILTINS = ['help', 'clear', 'history', 'cd', 'pwd', 'commands'] as const;

export interface Completion {
  /** Candidates for the word under the cursor (full words, sorted). */
  readonly candidates: readonly string[];
  /** The word typed so far, which the candidates extend. */
  readonly word: string;
  /** Text to insert now: the rest of the single candidate (plus a blank), or the candidates' common extension. */
  readonly insert: string;
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let p = words[0]!;
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** What can come at the position of the last word of `before` (the line up to the cursor). */
export function candidatesFor(catalogue: readonly ConsoleExecutable[], before: string): { word: string; all: string[] } | undefined {
  const t = tokenise(before);
  if (!t.ok) return undefined;
  const words = t.endsInBlank ? t.argv : t.argv.slice(0, -1);
  const word = t.last;
  if (words.length === 0) return { word, all: [...catalogue.map((e) => e.name), ...BUILTINS] };
  const exe = catalogue.find((e) => e.name === words[0]);
  if (!exe) return { word, all: [] };
  const positionals = words.slice(1).filter((w) => !w.startsWith('-'));
  const command = exe.commands.find((c) => c.name === positionals[0]);
  if (word.startsWith('-')) {
    const names = [...(command?.options ?? []).map((o) => o.name), ...exe.options.map((o) => o.name)];
    return { word, all: [...new Set(names)] };
  }
  if (!command) return { word, all: exe.commands.map((c) => c.name) };
  if (positionals.length === 1 && command.subcommands.length > 0) return { word, all: [...command.subcommands] };
  return { word, all: [] };
}

export function complete(catalogue: readonly ConsoleExecutable[], before: string): Completion {
  const found = candidatesFor(catalogue, before);
  if (!found) return { candidates: [], word: '', insert: '' };
  const candidates = [...new Set(found.all.filter((c) => c.startsWith(found.word)))].sort();
  if (candidates.length === 1) return { candidates, word: found.word, insert: `${candidates[0]!.slice(found.word.length)} ` };
  return { candidates, word: found.word, insert: commonPrefix(candidates).slice(found.word.length) };
}

/** A short description of the option or command a single candidate names, for the line under the prompt. */
export function describeCandidate(catalogue: readonly ConsoleExecutable[], before: string, candidate: string): string | undefined {
  const t = tokenise(before);
  if (!t.ok) return undefined;
  const exe = catalogue.find((e) => e.name === t.argv[0]);
  if (!exe) return catalogue.find((e) => e.name === candidate)?.summary;
  const command = exe.commands.find((c) => c.name === t.argv.slice(1).find((w) => !w.startsWith('-')));
  if (candidate.startsWith('-')) return [...(command?.options ?? []), ...exe.options].find((o) => o.name === candidate)?.description;
  return exe.commands.find((c) => c.name === candidate)?.summary;
}
