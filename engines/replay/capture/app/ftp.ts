// FTP control channel: commands and replies paired in order, USER/PASS attempts and their outcome (passwords are never kept).
import { LineSplitter } from './lines.js';

/** Commands kept per session; login counts go on past it. */
const MAX_COMMANDS = 200;

export interface FtpCommand {
  readonly ts: number;
  readonly packet: number;
  readonly command: string;
  /** The argument, except for PASS (replaced by its length). */
  readonly arg: string;
  readonly replyCode?: number;
  readonly replyMessage?: string;
}

export interface FtpSession {
  readonly uid: string;
  readonly ts: number;
  readonly banner?: string;
  /** The last user name given. */
  readonly user?: string;
  readonly users: readonly string[];
  readonly commands: readonly FtpCommand[];
  /** PASS commands sent. */
  readonly loginAttempts: number;
  /** USER or PASS answered with a 5xx reply (Zeek's failed-login rule). */
  readonly failedLogins: number;
  /** PASS answered 230. */
  readonly successfulLogins: number;
  readonly midstream: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class FtpConnection {
  private readonly client = new LineSplitter();
  private readonly server = new LineSplitter();
  private readonly waiting: Array<Mutable<FtpCommand>> = [];
  private readonly session: Mutable<FtpSession> & { users: string[]; commands: FtpCommand[] };
  /** Reply code of a multi-line reply in progress ("123-" until "123 "). */
  private multiline: number | undefined;
  private lineTs = 0;
  private linePacket = 0;

  constructor(uid: string, ts: number, midstream: boolean) {
    this.session = { uid, ts, users: [], commands: [], loginAttempts: 0, failedLogins: 0, successfulLogins: 0, midstream };
  }

  data(isOrig: boolean, bytes: Uint8Array, ts: number, packet: number): void {
    this.lineTs = ts;
    this.linePacket = packet;
    if (isOrig) this.client.push(bytes, (line) => this.command(line));
    else this.server.push(bytes, (line) => this.reply(line));
  }

  gap(isOrig: boolean): void {
    (isOrig ? this.client : this.server).reset();
    if (!isOrig) this.multiline = undefined;
  }

  private command(line: string): void {
    if (line.length === 0) return;
    const sp = line.indexOf(' ');
    const command = (sp < 0 ? line : line.slice(0, sp)).toUpperCase().slice(0, 16);
    let arg = sp < 0 ? '' : line.slice(sp + 1);
    if (command === 'PASS') {
      this.session.loginAttempts += 1;
      arg = `<${arg.length} characters>`;
    } else if (command === 'USER') {
      this.session.user = arg;
      if (this.session.users.length < 64 && !this.session.users.includes(arg)) this.session.users.push(arg);
    }
    const entry: Mutable<FtpCommand> = { ts: this.lineTs, packet: this.linePacket, command, arg };
    this.waiting.push(entry);
    if (this.session.commands.length < MAX_COMMANDS) this.session.commands.push(entry);
    if (this.waiting.length > MAX_COMMANDS) this.waiting.shift();
  }

  private reply(line: string): void {
    const m = /^(\d{3})([ -])?(.*)$/.exec(line);
    if (this.multiline !== undefined) {
      // Inside a multi-line reply only "code<space>" ends it.
      if (m && Number(m[1]) === this.multiline && m[2] === ' ') this.finishReply(this.multiline, m[3] ?? '');
      return;
    }
    if (m === null) return;
    const code = Number(m[1]);
    if (m[2] === '-') {
      this.multiline = code;
      return;
    }
    this.finishReply(code, m[3] ?? '');
  }

  private finishReply(code: number, message: string): void {
    this.multiline = undefined;
    const cmd = this.waiting.shift();
    if (cmd === undefined) {
      // A reply before any command is the greeting.
      if (this.session.banner === undefined) this.session.banner = `${code} ${message}`.slice(0, 512);
      return;
    }
    cmd.replyCode = code;
    cmd.replyMessage = message.slice(0, 512);
    if ((cmd.command === 'USER' || cmd.command === 'PASS') && code >= 500 && code < 600) this.session.failedLogins += 1;
    if (cmd.command === 'PASS' && code === 230) this.session.successfulLogins += 1;
  }

  result(): FtpSession {
    return { ...this.session, users: [...this.session.users], commands: [...this.session.commands] };
  }
}
