// The prompt's line editing, apart from the terminal: keystrokes (as xterm's onData gives them) in, edits and actions
// out; history with up/down; and the escape sequence that redraws a line that may wrap over several rows.

export type EditorAction =
  | { readonly kind: 'redraw' }
  | { readonly kind: 'submit'; readonly line: string }
  | { readonly kind: 'interrupt' }
  | { readonly kind: 'complete' }
  | { readonly kind: 'clear-screen' };

export const MAX_HISTORY = 500;
export const MAX_LINE = 16 * 1024;

/** Escape sequences the editor understands, by what they do. */
const SEQUENCES: Readonly<Record<string, string>> = {
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\x1b[C': 'right',
  '\x1bOC': 'right',
  '\x1b[D': 'left',
  '\x1bOD': 'left',
  '\x1b[H': 'home',
  '\x1bOH': 'home',
  '\x1b[1~': 'home',
  '\x1b[F': 'end',
  '\x1bOF': 'end',
  '\x1b[4~': 'end',
  '\x1b[3~': 'delete',
  '\x1b[1;5C': 'word-right',
  '\x1b[1;5D': 'word-left',
  '\x1bf': 'word-right',
  '\x1bb': 'word-left',
};

export class LineEditor {
  buffer = '';
  cursor = 0;
  private readonly history: string[];
  private index: number;
  private draft = '';

  constructor(history: readonly string[] = []) {
    this.history = history.slice(-MAX_HISTORY);
    this.index = this.history.length;
  }

  entries(): readonly string[] {
    return this.history;
  }

  /** Starts a new, empty line. */
  reset(): void {
    this.buffer = '';
    this.cursor = 0;
    this.index = this.history.length;
    this.draft = '';
  }

  insert(text: string): void {
    const room = MAX_LINE - this.buffer.length;
    const part = text.slice(0, Math.max(0, room));
    this.buffer = this.buffer.slice(0, this.cursor) + part + this.buffer.slice(this.cursor);
    this.cursor += part.length;
  }

  private remember(line: string): void {
    if (line.trim() === '' || this.history[this.history.length - 1] === line) return;
    this.history.push(line);
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
  }

  private wordLeft(): number {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.buffer[i - 1]!)) i--;
    while (i > 0 && !/\s/.test(this.buffer[i - 1]!)) i--;
    return i;
  }

  private wordRight(): number {
    let i = this.cursor;
    while (i < this.buffer.length && /\s/.test(this.buffer[i]!)) i++;
    while (i < this.buffer.length && !/\s/.test(this.buffer[i]!)) i++;
    return i;
  }

  private move(op: string): boolean {
    switch (op) {
      case 'up':
        if (this.index === 0) return false;
        if (this.index === this.history.length) this.draft = this.buffer;
        this.index--;
        this.buffer = this.history[this.index]!;
        this.cursor = this.buffer.length;
        return true;
      case 'down':
        if (this.index >= this.history.length) return false;
        this.index++;
        this.buffer = this.index === this.history.length ? this.draft : this.history[this.index]!;
        this.cursor = this.buffer.length;
        return true;
      case 'left':
        this.cursor = Math.max(0, this.cursor - 1);
        return true;
      case 'right':
        this.cursor = Math.min(this.buffer.length, this.cursor + 1);
        return true;
      case 'home':
        this.cursor = 0;
        return true;
      case 'end':
        this.cursor = this.buffer.length;
        return true;
      case 'word-left':
        this.cursor = this.wordLeft();
        return true;
      case 'word-right':
        this.cursor = this.wordRight();
        return true;
      case 'delete':
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        return true;
      default:
        return false;
    }
  }

  /** One onData payload: a key, an escape sequence, or pasted text (newlines become blanks: a paste never runs a command). */
  handle(data: string): EditorAction[] {
    const actions: EditorAction[] = [];
    const redraw = (): void => {
      if (actions[actions.length - 1]?.kind !== 'redraw') actions.push({ kind: 'redraw' });
    };
    if (data.length > 1 && (!data.startsWith('\x1b') || data.startsWith('\x1b[200~'))) {
      const text = data
        // eslint-disable-next-line no-control-regex
        .replace(/\x1b\[20[01]~/g, '')
        .replace(/[\r\n]+/g, ' ')
        .replace(/\t/g, ' ')
        // eslint-disable-next-line no-control-regex
        .replace(/[\x00-\x1f\x7f]/g, '');
      this.insert(text);
      redraw();
      return actions;
    }
    if (data.startsWith('\x1b')) {
      const op = SEQUENCES[data];
      if (op !== undefined && this.move(op)) redraw();
      return actions;
    }
    switch (data) {
      case '\r':
      case '\n': {
        const line = this.buffer;
        this.remember(line);
        this.reset();
        actions.push({ kind: 'submit', line });
        return actions;
      }
      case '\x7f':
      case '\b':
        if (this.cursor > 0) {
          this.buffer = this.buffer.slice(0, this.cursor - 1) + this.buffer.slice(this.cursor);
          this.cursor--;
          redraw();
        }
        return actions;
      case '\t':
        actions.push({ kind: 'complete' });
        return actions;
      case '\x03':
        actions.push({ kind: 'interrupt' });
        return actions;
      case '\x0c':
        actions.push({ kind: 'clear-screen' });
        return actions;
      case '\x01':
        this.move('home');
        break;
      case '\x05':
        this.move('end');
        break;
      case '\x02':
        this.move('left');
        break;
      case '\x06':
        this.move('right');
        break;
      case '\x04':
        this.move('delete');
        break;
      case '\x0b':
        this.buffer = this.buffer.slice(0, this.cursor);
        break;
      case '\x15':
        this.buffer = this.buffer.slice(this.cursor);
        this.cursor = 0;
        break;
      case '\x17': {
        const to = this.wordLeft();
        this.buffer = this.buffer.slice(0, to) + this.buffer.slice(this.cursor);
        this.cursor = to;
        break;
      }
      default:
        if (data >= ' ' && data !== '\x7f') this.insert(data);
        else return actions;
    }
    redraw();
    return actions;
  }
}

/** Cells a string takes (one per code point; wide characters are rare in command lines and counted as one). */
export function cells(text: string): number {
  return [...text].length;
}

/**
 * The escape sequence that redraws prompt + line and leaves the cursor at `cursor`, from a terminal cursor that sits at
 * `row` rows below the prompt's first row. Returns it with the cursor's new row, for the next redraw.
 */
export function redrawSequence(prompt: string, promptCells: number, line: string, cursor: number, cols: number, row: number): { seq: string; row: number } {
  const width = Math.max(1, cols);
  const end = promptCells + cells(line);
  const at = promptCells + cells(line.slice(0, cursor));
  let seq = row > 0 ? `\x1b[${row}A` : '';
  seq += `\r\x1b[J${prompt}${line}`;
  // At an exact multiple of the width the terminal waits to wrap: write a blank and step back so the cursor is on the next row.
  if (end > 0 && end % width === 0) seq += ' \b\x1b[K';
  const endRow = Math.floor(end / width);
  const atRow = Math.floor(at / width);
  if (endRow > atRow) seq += `\x1b[${endRow - atRow}A`;
  seq += '\r';
  if (at % width > 0) seq += `\x1b[${at % width}C`;
  return { seq, row: atRow };
}
