// One Console session on a terminal: the prompt, the console's own words (help, cd, history…), and a run's life —
// POST the argv, stream its output into the terminal, Ctrl-C as SIGINT then SIGKILL, the exit line, the next prompt.
import type { ConsoleCatalogue, ConsoleRunExit, ConsoleRunInfo } from '../../../../engines/core/contracts/console';
import { ApiError, type ApiClient } from '../../api/client';
import { readEventStream } from '../../api/events';
import { BUILTINS, complete, describeCandidate } from './complete';
import { wrapStyled } from './wrap';
import { LineEditor, redrawSequence, cells } from './lineEditor';
import { quoteWord, tokenise } from './tokenise';

/** What the session needs of the terminal (xterm's Terminal has all of it; tests pass a fake). */
export interface TerminalLike {
  readonly cols: number;
  write(data: string): void;
  clear(): void;
}

export interface SessionView {
  /** The command line running now, or null at the prompt. */
  readonly running: string | null;
  /** Why completion is unavailable, when the catalogue could not be read. */
  readonly catalogueError: string | null;
}

const API = '/api/console';
const C = { reset: '\x1b[0m', dim: '\x1b[2m', bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', cyan: '\x1b[36m' };
const HISTORY_KEY = 'vitrine.console.history';

function loadHistory(): string[] {
  try {
    const raw: unknown = JSON.parse(window.sessionStorage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function saveHistory(entries: readonly string[]): void {
  try {
    window.sessionStorage.setItem(HISTORY_KEY, JSON.stringify(entries.slice(-200)));
  } catch {
    // Storage full or refused: history lives on in memory.
  }
}

/** Lines written to the terminal: `\n` is enough (the terminal converts line ends). */
function lines(...ls: string[]): string {
  return `${ls.join('\n')}\n`;
}

export function exitLine(exit: ConsoleRunExit): string | null {
  if (exit.truncated) return `${C.yellow}[stopped: the output passed the Console's limit; write it to a file with the command's --out option]${C.reset}`;
  if (exit.cancelled) return `${C.dim}[cancelled]${C.reset}`;
  if (exit.code === 0) return null;
  if (exit.code === null) return `${C.red}[ended by ${exit.signal ?? 'a signal'}]${C.reset}`;
  return `${C.red}[exit ${exit.code}]${C.reset}`;
}

export class ConsoleSession {
  private readonly editor = new LineEditor(loadHistory());
  private catalogue: ConsoleCatalogue | null = null;
  private catalogueError: string | null = null;
  /** Working directory as the server resolved it; undefined means the data folder. */
  private cwd: string | undefined;
  private run: { id: string | null; line: string; abort: AbortController; interrupts: number } | null = null;
  private row = 0;
  private disposed = false;
  private typeAhead: string[] = [];

  constructor(
    private readonly term: TerminalLike,
    private readonly client: ApiClient,
    private readonly onView: (view: SessionView) => void,
    private readonly size: () => { cols: number; rows: number },
  ) {}

  start(): void {
    const { cols } = this.size();
    this.term.write(
      lines(
        ...wrapStyled(
          [
            [C.bold, 'Vitrine console'],
            [C.dim, " — runs the services' command lines on this workstation's data folder; it is not a shell."],
          ],
          cols,
        ),
        ...wrapStyled(
          [
            [C.dim, 'Type '],
            ['', 'help'],
            [C.dim, ', or a command such as '],
            ['', 'forensic --help'],
            [C.dim, '. Tab completes, ↑/↓ recall, Ctrl-C cancels.'],
          ],
          cols,
        ),
        '',
      ),
    );
    this.prompt();
    void this.loadCatalogue();
  }

  private async loadCatalogue(): Promise<void> {
    try {
      this.catalogue = await this.client.get<ConsoleCatalogue>(`${API}/commands`);
      this.catalogueError = null;
    } catch (err) {
      this.catalogueError = err instanceof ApiError ? err.message : 'The list of commands could not be read.';
    }
    this.emit();
  }

  private emit(): void {
    this.onView({ running: this.run?.line ?? null, catalogueError: this.catalogueError });
  }

  private promptText(): { text: string; width: number } {
    const home = this.catalogue?.home;
    const evidence = this.catalogue?.evidence_root ?? null;
    let where = '~';
    if (this.cwd !== undefined && home !== undefined) {
      if (this.cwd === home) where = '~';
      else if (this.cwd.startsWith(`${home}/`) || this.cwd.startsWith(`${home}\\`)) where = `~${this.cwd.slice(home.length)}`;
      else if (evidence !== null && this.cwd.startsWith(evidence)) where = `evidence:${this.cwd.slice(evidence.length) || '/'}`;
      else where = this.cwd;
    }
    const plain = `vitrine ${where} $ `;
    return { text: `${C.cyan}vitrine${C.reset} ${C.bold}${where}${C.reset} $ `, width: cells(plain) };
  }

  private prompt(): void {
    this.editor.reset();
    this.row = 0;
    this.term.write(this.promptText().text);
  }

  private redraw(): void {
    const p = this.promptText();
    const r = redrawSequence(p.text, p.width, this.editor.buffer, this.editor.cursor, this.term.cols, this.row);
    this.row = r.row;
    this.term.write(r.seq);
  }

  /** Ends the edited line on screen (cursor to its end, then a new line). */
  private leaveLine(suffix = ''): void {
    this.editor.cursor = this.editor.buffer.length;
    this.redraw();
    this.term.write(`${suffix}\n`);
  }

  /** Everything xterm's onData gives. */
  input(data: string): void {
    if (this.disposed) return;
    if (this.run) {
      if (data === '\x03') this.interrupt();
      // Type-ahead, as a terminal keeps it: replayed at the next prompt (without the run's Ctrl-C).
      else if (this.typeAhead.length < 64) this.typeAhead.push(data);
      return;
    }
    for (const action of this.editor.handle(data)) {
      switch (action.kind) {
        case 'redraw':
          this.redraw();
          break;
        case 'complete':
          this.complete();
          break;
        case 'interrupt':
          this.leaveLine('^C');
          this.prompt();
          break;
        case 'clear-screen':
          this.term.clear();
          this.term.write('\x1b[H\x1b[2J');
          this.row = 0;
          this.redraw();
          break;
        case 'submit':
          this.term.write('\n');
          saveHistory(this.editor.entries());
          void this.submit(action.line);
          break;
      }
    }
  }

  private complete(): void {
    const catalogue = this.catalogue?.executables ?? [];
    const before = this.editor.buffer.slice(0, this.editor.cursor);
    const c = complete(catalogue, before);
    if (c.insert !== '') {
      this.editor.insert(c.insert);
      this.redraw();
      return;
    }
    if (c.candidates.length <= 1) {
      this.term.write('\x07');
      return;
    }
    const withText = c.candidates.map((name) => ({ name, about: describeCandidate(catalogue, before, name) }));
    const width = Math.max(...c.candidates.map((x) => x.length)) + 2;
    const out: string[] = [];
    if (withText.some((x) => x.about !== undefined)) {
      for (const x of withText) out.push(`${x.name.padEnd(width)}${C.dim}${(x.about ?? '').slice(0, Math.max(0, this.term.cols - width - 1))}${C.reset}`);
    } else {
      const perRow = Math.max(1, Math.floor(this.term.cols / width));
      for (let i = 0; i < c.candidates.length; i += perRow) out.push(c.candidates.slice(i, i + perRow).map((x) => x.padEnd(width)).join('').trimEnd());
    }
    const { buffer, cursor } = this.editor;
    this.leaveLine();
    this.term.write(lines(...out));
    this.editor.buffer = buffer;
    this.editor.cursor = cursor;
    this.row = 0;
    this.term.write(this.promptText().text);
    this.redraw();
  }

  private async submit(line: string): Promise<void> {
    const t = tokenise(line);
    if (!t.ok) {
      this.term.write(lines(`${C.red}console: ${t.error}${C.reset}`));
      this.prompt();
      return;
    }
    if (t.argv.length === 0) {
      this.prompt();
      return;
    }
    const [name, ...args] = t.argv;
    if ((BUILTINS as readonly string[]).includes(name!)) {
      await this.builtin(name!, args);
      this.prompt();
      return;
    }
    await this.execute(t.argv, line);
    if (this.disposed) return;
    this.prompt();
    for (const data of this.typeAhead.splice(0)) this.input(data);
  }

  private async builtin(name: string, args: readonly string[]): Promise<void> {
    const executables = this.catalogue?.executables ?? [];
    switch (name) {
      case 'help':
        this.term.write(
          lines(
            `${C.bold}Commands${C.reset}: ${executables.map((e) => e.name).join(', ') || 'caseassess, petriage, replay, provgate, attrib, pkgscan, forensic, flowdet'}`,
            `  Each takes --help (its usage); ${C.bold}commands NAME${C.reset} lists the commands and options Tab completes.`,
            `${C.bold}Console words${C.reset}: cd DIR, pwd, history, clear, commands, help`,
            `${C.bold}Not a shell${C.reset}: words are split on blanks, '…' and "…" quote, \\ escapes one character;`,
            '  no variables, globs, ~, pipes or redirections (use the commands\' --out options to write files).',
            `${C.bold}Where${C.reset}: runs start in the data folder (VITRINE_HOME) or a folder below it or below the evidence root.`,
            `${C.bold}Keys${C.reset}: Tab complete · ↑/↓ history · Ctrl-C cancel (twice: kill) · Ctrl-L clear · Ctrl-A/E/U/K/W edit`,
            `  Ctrl-Shift-C copies the selection (Ctrl-C too while text is selected), Ctrl-V or Ctrl-Shift-V pastes.`,
            '',
          ),
        );
        return;
      case 'clear':
        this.term.clear();
        this.term.write('\x1b[H\x1b[2J');
        return;
      case 'history':
        this.term.write(lines(...this.editor.entries().map((h, i) => `${String(i + 1).padStart(4)}  ${h}`)));
        return;
      case 'pwd':
        this.term.write(lines(this.cwd ?? this.catalogue?.home ?? '(the data folder)'));
        return;
      case 'commands': {
        const exe = executables.find((e) => e.name === args[0]);
        if (!exe) {
          for (const e of executables) this.term.write(lines(`${e.name.padEnd(12)}${C.dim}${e.summary}${C.reset}`));
          if (executables.length === 0) this.term.write(lines(this.catalogueError ?? 'The list of commands is still loading.'));
          return;
        }
        for (const c of exe.commands) this.term.write(lines(`${C.bold}${exe.name} ${c.name}${C.reset} ${c.subcommands.join('|')}`, `  ${C.dim}${c.options.map((o) => o.name).join(' ') || '(no options)'}${C.reset}`));
        return;
      }
      case 'cd': {
        if (args.length > 1) {
          this.term.write(lines(`${C.red}cd: one folder at a time${C.reset}`));
          return;
        }
        try {
          const r = await this.client.post<{ cwd: string }>(`${API}/cwd`, { ...(this.cwd !== undefined ? { from: this.cwd } : {}), to: args[0] ?? '' });
          this.cwd = r.cwd;
        } catch (err) {
          this.term.write(lines(`${C.red}cd: ${err instanceof ApiError ? err.message : 'failed'}${C.reset}`));
        }
        return;
      }
    }
  }

  private async execute(argv: readonly string[], line: string): Promise<void> {
    const abort = new AbortController();
    this.run = { id: null, line, abort, interrupts: 0 };
    this.emit();
    try {
      const size = this.size();
      const info = await this.client.post<ConsoleRunInfo>(`${API}/runs`, { argv, ...(this.cwd !== undefined ? { cwd: this.cwd } : {}), cols: size.cols, rows: size.rows });
      this.run.id = info.id;
      // A Ctrl-C typed while the run was being started.
      if (this.run.interrupts > 0) void this.signal(info.id, 'SIGINT');
      let exit: ConsoleRunExit | null = null;
      let atLineStart = true;
      await readEventStream(
        this.client,
        `${API}/runs/${info.id}/stream`,
        (m) => {
          if (m.event === 'out' || m.event === 'err') {
            const text = JSON.parse(m.data) as string;
            if (text !== '') atLineStart = text.endsWith('\n');
            this.term.write(text);
          }
          else if (m.event === 'exit') exit = JSON.parse(m.data) as ConsoleRunExit;
        },
        abort.signal,
      );
      if (exit === null) {
        if (!this.disposed) this.term.write(lines('', `${C.red}[the output stream ended before the command did]${C.reset}`));
      } else {
        const note = exitLine(exit);
        // Output that did not end its last line: move to a fresh one first.
        this.term.write(`\x1b[0m${atLineStart ? '' : '\n'}${note === null ? '' : `${note}\n`}`);
      }
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) {
        const message = err instanceof ApiError ? err.message : 'the command could not be started';
        this.term.write(lines(`${C.red}${quoteWord(argv[0] ?? '')}: ${message}${C.reset}`));
      }
    } finally {
      this.run = null;
      this.emit();
    }
  }

  private async signal(id: string, signal: 'SIGINT' | 'SIGKILL'): Promise<void> {
    try {
      await this.client.post(`${API}/runs/${id}/signal`, { signal });
    } catch {
      // Already finished: its exit arrives on the stream.
    }
  }

  /** Ctrl-C while a command runs: SIGINT, and SIGKILL on the second. */
  interrupt(): void {
    const run = this.run;
    if (!run) return;
    run.interrupts++;
    this.term.write(run.interrupts === 1 ? '^C\n' : '^C (kill)\n');
    if (run.id !== null) void this.signal(run.id, run.interrupts === 1 ? 'SIGINT' : 'SIGKILL');
  }

  /** The page is going: stop reading (the gateway then hangs up the run). */
  dispose(): void {
    this.disposed = true;
    this.run?.abort.abort();
  }
}
