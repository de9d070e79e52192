// The Console workspace: an xterm terminal that runs the services' command lines through /api/console (argv only,
// never a shell), sized to its container by measuring the terminal's own cells (no fit addon is installed).
import { Terminal, type ITheme } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { Progress } from '../../components/Progress';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import type { WorkspaceProps } from '../registry';
import { ConsoleSession, type SessionView } from './session';
import './console.css';

function themeFromPage(): ITheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const dark = document.documentElement.dataset['theme'] === 'dark';
  return {
    background: v('--panel', dark ? '#1e2126' : '#ffffff'),
    foreground: v('--text', dark ? '#e2e5ea' : '#1d2229'),
    cursor: v('--accent', '#2f5f9e'),
    cursorAccent: v('--panel', '#ffffff'),
    selectionBackground: v('--accent-soft', '#e3ebf6'),
    selectionForeground: v('--text', '#1d2229'),
    // Readable on a light page too: the light theme darkens yellow and the whites.
    ...(dark ? {} : { yellow: '#8a5a00', brightYellow: '#8a5a00', white: '#5d6673', brightWhite: '#1d2229' }),
  };
}

/** Columns and rows that fit `host`, from the size of the cells xterm drew (its screen is cols×rows cells). */
export function fitSize(host: HTMLElement, term: Terminal): { cols: number; rows: number } | null {
  const screen = host.querySelector<HTMLElement>('.xterm-screen');
  if (!screen || host.clientWidth === 0 || host.clientHeight === 0) return null;
  const rect = screen.getBoundingClientRect();
  const cellW = rect.width / term.cols;
  const cellH = rect.height / term.rows;
  if (!(cellW > 0) || !(cellH > 0)) return null;
  const style = getComputedStyle(host);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  // Room for the scrollbar on the right.
  const cols = Math.floor((host.clientWidth - padX - 14) / cellW);
  const rows = Math.floor((host.clientHeight - padY) / cellH);
  return { cols: Math.max(20, cols), rows: Math.max(4, rows) };
}

export default function ConsoleWorkspace({ client }: WorkspaceProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const sessionRef = useRef<ConsoleSession | null>(null);
  const [view, setView] = useState<SessionView>({ running: null, catalogueError: null });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return undefined;
    const term = new Terminal({
      convertEol: true,
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      fontSize: 13,
      scrollback: 5000,
      theme: themeFromPage(),
    });
    termRef.current = term;
    term.open(host);
    const session = new ConsoleSession(term, client, setView, () => ({ cols: term.cols, rows: term.rows }));
    sessionRef.current = session;
    const copySelection = (): void => {
      const text = term.getSelection();
      if (text !== '') void navigator.clipboard?.writeText(text).catch(() => undefined);
    };
    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown') return true;
      const key = e.key.toLowerCase();
      if (e.ctrlKey && e.shiftKey && key === 'c') {
        copySelection();
        return false;
      }
      // Ctrl-C with text selected copies it, as terminal windows do; without a selection it is the interrupt.
      if (e.ctrlKey && !e.shiftKey && key === 'c' && term.hasSelection()) {
        copySelection();
        term.clearSelection();
        return false;
      }
      // Let the browser paste (xterm reads the paste event); never send ^V.
      if (e.ctrlKey && key === 'v') return false;
      // Shift+Tab leaves the terminal for the controls before it (Tab stays completion), so the keyboard is never held here.
      if (e.key === 'Tab' && e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) return false;
      // Alt/Ctrl+digit switch workspace (the shell's shortcut), not input.
      if ((e.altKey || e.ctrlKey) && /^Digit[1-9]$/.test(e.code)) return false;
      return true;
    });
    const onData = term.onData((d) => session.input(d));
    const fit = (): void => {
      const size = fitSize(host, term);
      if (size && (size.cols !== term.cols || size.rows !== term.rows)) term.resize(size.cols, size.rows);
    };
    const observer = new ResizeObserver(() => fit());
    observer.observe(host);
    const themeWatch = new MutationObserver(() => {
      term.options.theme = themeFromPage();
    });
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    fit();
    session.start();
    term.focus();
    return () => {
      observer.disconnect();
      themeWatch.disconnect();
      onData.dispose();
      session.dispose();
      term.dispose();
      termRef.current = null;
      sessionRef.current = null;
    };
  }, [client]);

  const paste = async (): Promise<void> => {
    try {
      const text = await navigator.clipboard.readText();
      if (text !== '') termRef.current?.paste(text);
    } catch {
      termRef.current?.write('\r\n\x1b[33mThe browser refused to read the clipboard: paste with Ctrl-V in the terminal.\x1b[0m\r\n');
    }
    termRef.current?.focus();
  };

  return (
    <div className="ws-page console" data-testid="console-workspace">
      <WorkspaceHeader title="Console" purpose="Run the services' command lines on this workstation's data (not a shell)">
        <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(termRef.current?.getSelection() ?? '')} title="Copy the selected text (Ctrl-Shift-C)">
          Copy
        </button>
        <button type="button" className="small" onClick={() => void paste()} title="Paste into the prompt (Ctrl-V)">
          Paste
        </button>
        <button
          type="button"
          className="small"
          onClick={() => {
            termRef.current?.clear();
            termRef.current?.focus();
          }}
          title="Clear the scrollback (Ctrl-L clears the screen)"
        >
          Clear
        </button>
      </WorkspaceHeader>
      <div className="console__status" aria-live="polite" data-testid="console-status">
        {view.running !== null ? (
          <>
            <span className="console__running">
              Running <code>{view.running.length > 80 ? `${view.running.slice(0, 79)}…` : view.running}</code>
            </span>
            <Progress label="Command running" />
            <button type="button" className="small" onClick={() => sessionRef.current?.interrupt()} data-testid="console-cancel">
              Cancel (Ctrl-C)
            </button>
          </>
        ) : (
          <span className="muted">
            {view.catalogueError !== null ? `Tab completion is unavailable: ${view.catalogueError}` : 'Ready. Type help for the rules: argv only, no shell, runs start in the data folder.'}
          </span>
        )}
      </div>
      <div className="console__term" ref={hostRef} data-testid="console-terminal" />
    </div>
  );
}
