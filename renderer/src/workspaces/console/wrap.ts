// Text for the terminal wrapped between words at its width, keeping each piece's colour: xterm breaks a long line at
// the last column, inside a word ("reca / ll"), so the Console's own lines are wrapped before they are written.

/** Pieces of text, each with the SGR sequence it is written in ('' for the default). */
export type Styled = readonly (readonly [style: string, text: string])[];

const RESET = '\x1b[0m';

/** The lines of `parts` at most `cols` characters wide (a single longer word is left whole); each ends in a reset. */
export function wrapStyled(parts: Styled, cols: number): string[] {
  const width = Math.max(10, Math.floor(cols));
  const words: [string, string][][] = [];
  let word: [string, string][] = [];
  for (const [style, text] of parts) {
    for (const piece of text.split(/( )/u)) {
      if (piece === ' ') {
        if (word.length > 0) words.push(word);
        word = [];
      } else if (piece !== '') word.push([style, piece]);
    }
  }
  if (word.length > 0) words.push(word);
  const out: string[] = [];
  let line = '';
  let length = 0;
  for (const w of words) {
    const wordLength = w.reduce((n, [, t]) => n + [...t].length, 0);
    if (length > 0 && length + 1 + wordLength > width) {
      out.push(line + RESET);
      line = '';
      length = 0;
    }
    if (length > 0) {
      line += ' ';
      length += 1;
    }
    for (const [style, t] of w) line += `${RESET}${style}${t}`;
    length += wordLength;
  }
  if (line !== '' || out.length === 0) out.push(line + RESET);
  return out;
}
