// A Console session against a fake gateway and a fake terminal: a typed line goes out as an argv array, the stream's
// output comes back into the terminal, Ctrl-C signals the run, refusals and `cd` change the prompt.
import { describe, expect, it } from 'vitest';
import type { ConsoleCatalogue } from '../../../../engines/core/contracts/console';
import { ApiError, type ApiClient } from '../../api/client';
import { ConsoleSession, type TerminalLike } from './session';

const CATALOGUE: ConsoleCatalogue = {
  home: '/data',
  evidence_root: null,
  executables: [{ name: 'forensic', summary: 'timeline', options: [{ name: '--help' }], commands: [{ name: 'scenarios', subcommands: [], usage: [], options: [] }] }],
};

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

/** A gateway whose run stream stays open until `finish` is called (or ends at once when `exitAtOnce`). */
function fakeGateway(exitAtOnce: boolean) {
  const calls: Call[] = [];
  let finish: (frames: string) => void = () => undefined;
  const client = {
    apiBase: 'http://gw',
    get: async (path: string) => {
      calls.push({ method: 'GET', path });
      return CATALOGUE;
    },
    post: async (path: string, body: unknown) => {
      calls.push({ method: 'POST', path, body });
      if (path === '/api/console/runs') {
        const argv = (body as { argv: string[] }).argv;
        if (argv[0] !== 'forensic') throw new ApiError(400, 'bad_request', 'unknown command: the Console runs only …');
        return { id: '11111111-1111-4111-8111-111111111111', argv, cwd: '/data', state: 'running', started_at: '' };
      }
      if (path === '/api/console/cwd') {
        const to = (body as { to: string }).to;
        if (to === '..') throw new ApiError(403, 'forbidden', 'the working directory must be inside the data folder or the evidence root');
        return { cwd: `/data/${to}` };
      }
      return {};
    },
    open: async (path: string) => {
      calls.push({ method: 'OPEN', path });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const enc = new TextEncoder();
          controller.enqueue(enc.encode(': run\n\nevent: out\ndata: "\\u001b[32mok\\u001b[0m\\n"\n\n'));
          finish = (frames) => {
            controller.enqueue(enc.encode(frames));
            controller.close();
          };
          if (exitAtOnce) finish('event: exit\ndata: {"code":0,"signal":null,"truncated":false,"cancelled":false}\n\n');
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    },
  } as unknown as ApiClient;
  return { client, calls, finish: (frames: string) => finish(frames) };
}

function fakeTerminal(): TerminalLike & { text: () => string } {
  let out = '';
  return {
    cols: 80,
    write: (d: string) => {
      out += d;
    },
    clear: () => undefined,
    text: () => out,
  };
}

/** Lets the session's promises settle (no timers involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

function typeLine(session: ConsoleSession, line: string): void {
  for (const ch of line) session.input(ch);
  session.input('\r');
}

describe('ConsoleSession', () => {
  it('wraps its opening lines between words at the terminal width, never inside a word', () => {
    const term = fakeTerminal();
    const session = new ConsoleSession(term, fakeGateway(true).client, () => undefined, () => ({ cols: 40, rows: 24 }));
    session.start();
    // eslint-disable-next-line no-control-regex
    const plain = term.text().replace(/\x1b\[[0-9;]*m/gu, '');
    const banner = plain.split('\n').slice(0, -2);
    expect(banner.length).toBeGreaterThan(2);
    for (const line of banner) expect([...line].length).toBeLessThanOrEqual(40);
    expect(banner.join(' ')).toContain("Vitrine console — runs the services' command lines on this workstation's data folder; it is not a shell.");
    expect(banner.join(' ')).toContain('Type help, or a command such as forensic --help. Tab completes, ↑/↓ recall, Ctrl-C cancels.');
    session.dispose();
  });

  it('sends a typed line as an argv array with the terminal size, and writes the streamed output', async () => {
    const gw = fakeGateway(true);
    const term = fakeTerminal();
    const views: (string | null)[] = [];
    const session = new ConsoleSession(term, gw.client, (v) => views.push(v.running), () => ({ cols: 80, rows: 24 }));
    session.start();
    await settle();
    typeLine(session, `forensic scenarios 'a b' $HOME`);
    await settle();
    expect(gw.calls.find((c) => c.path === '/api/console/runs')?.body).toEqual({ argv: ['forensic', 'scenarios', 'a b', '$HOME'], cols: 80, rows: 24 });
    expect(term.text()).toContain('\u001b[32mok\u001b[0m');
    expect(views).toContain(`forensic scenarios 'a b' $HOME`);
    expect(views.at(-1)).toBeNull();
    // A fresh prompt after the run.
    expect(term.text().endsWith(' $ ')).toBe(true);
  });

  it('Ctrl-C while a command runs sends SIGINT, a second one SIGKILL; the exit line says cancelled', async () => {
    const gw = fakeGateway(false);
    const term = fakeTerminal();
    const session = new ConsoleSession(term, gw.client, () => undefined, () => ({ cols: 80, rows: 24 }));
    session.start();
    await settle();
    typeLine(session, 'forensic scenarios');
    await settle();
    session.input('x');
    session.input('\x03');
    session.input('\x03');
    await settle();
    const signals = gw.calls.filter((c) => c.path.endsWith('/signal')).map((c) => (c.body as { signal: string }).signal);
    expect(signals).toEqual(['SIGINT', 'SIGKILL']);
    gw.finish('event: exit\ndata: {"code":null,"signal":"SIGKILL","truncated":false,"cancelled":true}\n\n');
    await settle();
    expect(term.text()).toContain('[cancelled]');
    // What was typed while it ran comes back at the next prompt.
    expect(term.text().split('[cancelled]')[1]).toContain(' $ x');
  });

  it('refuses an unterminated quote locally, shows a gateway refusal, and cd moves the prompt', async () => {
    const gw = fakeGateway(true);
    const term = fakeTerminal();
    const session = new ConsoleSession(term, gw.client, () => undefined, () => ({ cols: 80, rows: 24 }));
    session.start();
    await settle();
    typeLine(session, `forensic 'open`);
    await settle();
    expect(term.text()).toContain('console: unterminated single quote');
    typeLine(session, 'bash -c id');
    await settle();
    expect(term.text()).toContain('bash: unknown command: the Console runs only');
    typeLine(session, 'cd ..');
    await settle();
    expect(term.text()).toContain('cd: the working directory must be inside');
    typeLine(session, 'cd cases');
    await settle();
    expect(term.text()).toContain('~/cases');
    typeLine(session, 'forensic scenarios');
    await settle();
    expect(gw.calls.filter((c) => c.path === '/api/console/runs').at(-1)?.body).toMatchObject({ cwd: '/data/cases' });
  });

  it('Tab completes from the catalogue', async () => {
    const gw = fakeGateway(true);
    const term = fakeTerminal();
    const session = new ConsoleSession(term, gw.client, () => undefined, () => ({ cols: 80, rows: 24 }));
    session.start();
    await settle();
    for (const ch of 'fo') session.input(ch);
    session.input('\t');
    for (const ch of 'sc') session.input(ch);
    session.input('\t');
    expect(term.text()).toContain('forensic scenarios ');
  });
});
