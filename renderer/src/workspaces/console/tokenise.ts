// A command line into an argv array with simple quoting rules (not a shell: no variables, globs, pipes or redirections):
// blanks separate words; '...' is literal; "..." is literal but for \" and \\; a backslash outside quotes takes the next character.

export type Tokenised =
  | { readonly ok: true; readonly argv: string[]; /** The word being typed at the end ('' after a blank), unquoted. */ readonly last: string; readonly endsInBlank: boolean }
  | { readonly ok: false; readonly error: string };

const BLANK = /\s/;

export function tokenise(line: string): Tokenised {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i]!;
      else word += c;
      continue;
    }
    if (BLANK.test(c)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i]!;
    } else word += c;
  }
  if (quote !== null) return { ok: false, error: `unterminated ${quote === "'" ? 'single' : 'double'} quote` };
  if (inWord) argv.push(word);
  const endsInBlank = !inWord;
  return { ok: true, argv, last: endsInBlank ? '' : (argv[argv.length - 1] ?? ''), endsInBlank };
}

/** Quotes a word for display or completion so tokenise() gives it back unchanged. */
export function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
