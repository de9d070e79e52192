// Protocols known by their opening bytes: SSH banners, RFB (VNC) handshakes, SMB over NetBIOS, RDP connection requests.
import { latin1, LineSplitter } from './lines.js';

/** How a service was recognised: by what the peers sent, or only by the port (a scan or an empty connection). */
export type DetectedBy = 'banner' | 'port';

export interface SshSession {
  readonly uid: string;
  readonly ts: number;
  readonly packet: number;
  readonly client?: string;
  readonly server?: string;
}

/** Reads the identification line ("SSH-2.0-...") of each side; a server may send other lines first. */
export class SshConnection {
  private readonly splitters = [new LineSplitter(1024), new LineSplitter(1024)];
  private client: string | undefined;
  private server: string | undefined;
  private lines = [0, 0];
  private ts = 0;
  private packet = 0;

  constructor(private readonly uid: string) {}

  get done(): boolean {
    return (this.client !== undefined || (this.lines[0] ?? 0) > 10) && (this.server !== undefined || (this.lines[1] ?? 0) > 10);
  }

  data(isOrig: boolean, bytes: Uint8Array, ts: number, packet: number): void {
    const side = isOrig ? 0 : 1;
    if ((isOrig ? this.client : this.server) !== undefined) return;
    if (this.ts === 0) {
      this.ts = ts;
      this.packet = packet;
    }
    this.splitters[side]?.push(bytes, (line) => {
      this.lines[side] = (this.lines[side] ?? 0) + 1;
      if (line.startsWith('SSH-')) {
        const text = printable(line).slice(0, 255);
        if (isOrig) this.client = text;
        else this.server = text;
        return false;
      }
      return (this.lines[side] ?? 0) <= 10;
    });
  }

  result(): SshSession | undefined {
    if (this.client === undefined && this.server === undefined) return undefined;
    return {
      uid: this.uid,
      ts: this.ts,
      packet: this.packet,
      ...(this.client !== undefined ? { client: this.client } : {}),
      ...(this.server !== undefined ? { server: this.server } : {}),
    };
  }
}

export interface RfbSession {
  readonly uid: string;
  readonly ts: number;
  readonly clientVersion?: string;
  readonly serverVersion?: string;
  /** Security types the server offered (protocol 3.7 and later) or imposed (3.3). */
  readonly securityTypes: readonly number[];
  /** Security type the client chose; 2 is VNC authentication. */
  readonly authType?: number;
  readonly authTypeName?: string;
  /** The server's SecurityResult: true for OK, false for failed. */
  readonly authSuccess?: boolean;
}

const RFB_AUTH: Readonly<Record<number, string>> = { 1: 'None', 2: 'VNC', 5: 'RA2', 6: 'RA2ne', 16: 'Tight', 17: 'Ultra', 18: 'TLS', 19: 'VeNCrypt', 30: 'Apple', 35: 'ARD' };

/** RFB opening: "RFB xxx.yyy\n" from each side, the server's security types, the client's choice, the result. */
export class RfbConnection {
  private readonly bufs: [number[], number[]] = [[], []];
  private clientVersion: string | undefined;
  private serverVersion: string | undefined;
  private types: number[] = [];
  private chosen: number | undefined;
  private success: boolean | undefined;
  private serverStage = 0;
  private clientStage = 0;
  done = false;

  constructor(
    private readonly uid: string,
    private readonly ts: number,
  ) {}

  data(isOrig: boolean, bytes: Uint8Array): void {
    if (this.done) return;
    const buf = this.bufs[isOrig ? 0 : 1];
    for (const b of bytes.subarray(0, 4096)) if (buf.length < 4096) buf.push(b);
    this.advance();
  }

  private version(buf: number[]): string | undefined {
    if (buf.length < 12) return undefined;
    const text = latin1(Uint8Array.from(buf.slice(0, 12)));
    const m = /^RFB (\d{3})\.(\d{3})\n$/.exec(text);
    buf.splice(0, 12);
    return m ? `${m[1]}.${m[2]}` : 'invalid';
  }

  private advance(): void {
    const [client, server] = this.bufs;
    if (this.serverStage === 0) {
      const v = this.version(server);
      if (v !== undefined) {
        this.serverVersion = v;
        this.serverStage = v === 'invalid' ? 9 : 1;
      }
    }
    if (this.clientStage === 0) {
      const v = this.version(client);
      if (v !== undefined) {
        this.clientVersion = v;
        this.clientStage = v === 'invalid' ? 9 : 1;
      }
    }
    const old = this.serverVersion === '003.003';
    if (this.serverStage === 1) {
      if (old) {
        if (server.length >= 4) {
          const t = ((server[0]! << 24) | (server[1]! << 16) | (server[2]! << 8) | server[3]!) >>> 0;
          server.splice(0, 4);
          this.types = [t];
          this.chosen = t;
          this.serverStage = t === 2 ? 2 : 9;
        }
      } else if (server.length >= 1 && server.length >= 1 + server[0]!) {
        const n = server[0]!;
        this.types = server.slice(1, 1 + n);
        server.splice(0, 1 + n);
        this.serverStage = n === 0 ? 9 : 2;
      }
    }
    if (this.clientStage === 1 && !old && client.length >= 1) {
      this.chosen = client[0]!;
      client.splice(0, 1);
      this.clientStage = 2;
    }
    // VNC authentication: 16-byte challenge, 16-byte response, then a 4-byte result (3.8 reports it for every type).
    if (this.serverStage === 2 && this.chosen !== undefined) {
      const challenge = this.chosen === 2 ? 16 : 0;
      if (server.length >= challenge + 4 && (this.chosen === 2 || this.serverVersion === '003.008')) {
        const r = server.slice(challenge, challenge + 4);
        this.success = ((r[0]! << 24) | (r[1]! << 16) | (r[2]! << 8) | r[3]!) >>> 0 === 0;
        this.serverStage = 9;
      }
    }
    if (this.serverStage === 9 && (this.clientStage === 2 || this.clientStage === 9)) this.done = true;
  }

  result(): RfbSession | undefined {
    if (this.clientVersion === undefined && this.serverVersion === undefined) return undefined;
    const name = this.chosen !== undefined ? RFB_AUTH[this.chosen] : undefined;
    return {
      uid: this.uid,
      ts: this.ts,
      ...(this.clientVersion !== undefined ? { clientVersion: this.clientVersion } : {}),
      ...(this.serverVersion !== undefined ? { serverVersion: this.serverVersion } : {}),
      securityTypes: this.types,
      ...(this.chosen !== undefined ? { authType: this.chosen } : {}),
      ...(name !== undefined ? { authTypeName: name } : {}),
      ...(this.success !== undefined ? { authSuccess: this.success } : {}),
    };
  }
}

export function looksLikeRfb(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x52 && b[1] === 0x46 && b[2] === 0x42 && b[3] === 0x20;
}

export interface SmbSession {
  readonly uid: string;
  readonly ts: number;
  readonly detectedBy: DetectedBy;
  /** SMB1, SMB2 (2.x and 3.x) or SMB3-encrypted, from the header magic. */
  readonly dialect?: 'SMB1' | 'SMB2' | 'SMB3-encrypted';
  /** Names of the first commands seen from the client (bounded). */
  readonly commands: readonly string[];
}

const SMB1_COMMANDS: Readonly<Record<number, string>> = { 0x72: 'NEGOTIATE', 0x73: 'SESSION_SETUP_ANDX', 0x75: 'TREE_CONNECT_ANDX', 0xa2: 'NT_CREATE_ANDX', 0x25: 'TRANS', 0x32: 'TRANS2' };
const SMB2_COMMANDS = ['NEGOTIATE', 'SESSION_SETUP', 'LOGOFF', 'TREE_CONNECT', 'TREE_DISCONNECT', 'CREATE', 'CLOSE', 'FLUSH', 'READ', 'WRITE', 'LOCK', 'IOCTL', 'CANCEL', 'ECHO', 'QUERY_DIRECTORY', 'CHANGE_NOTIFY', 'QUERY_INFO', 'SET_INFO', 'OPLOCK_BREAK'];

/** SMB over NetBIOS session service: 4-byte length header then the SMB header; reads the first messages only. */
export class SmbConnection {
  private buf: number[] = [];
  private dialect: SmbSession['dialect'];
  private readonly commands: string[] = [];
  private messages = 0;
  done = false;

  constructor(
    private readonly uid: string,
    private readonly ts: number,
  ) {}

  data(isOrig: boolean, bytes: Uint8Array): void {
    if (this.done || !isOrig) return;
    for (const b of bytes.subarray(0, 8192)) if (this.buf.length < 16384) this.buf.push(b);
    while (this.buf.length >= 8 && this.messages < 16) {
      const type = this.buf[0]!;
      const len = (this.buf[1]! << 16) | (this.buf[2]! << 8) | this.buf[3]!;
      if (type !== 0) {
        // NetBIOS session request (0x81) and keep-alives come before SMB on port 139.
        if (this.buf.length < 4 + len) return;
        this.buf.splice(0, 4 + len);
        continue;
      }
      const magic = this.buf.slice(4, 8);
      if (magic[1] !== 0x53 || magic[2] !== 0x4d || magic[3] !== 0x42) {
        this.done = true;
        return;
      }
      if (magic[0] === 0xff) {
        this.dialect ??= 'SMB1';
        if (this.buf.length >= 9) this.commands.push(SMB1_COMMANDS[this.buf[8]!] ?? `0x${this.buf[8]!.toString(16)}`);
      } else if (magic[0] === 0xfe) {
        this.dialect = 'SMB2';
        if (this.buf.length >= 18) {
          const cmd = this.buf[16]! | (this.buf[17]! << 8);
          this.commands.push(SMB2_COMMANDS[cmd] ?? `0x${cmd.toString(16)}`);
        }
      } else if (magic[0] === 0xfd) {
        this.dialect = 'SMB3-encrypted';
        this.done = true;
        return;
      }
      this.messages += 1;
      if (this.buf.length < 4 + len) {
        this.done = true; // a long message: the first command is what we wanted
        return;
      }
      this.buf.splice(0, 4 + len);
    }
    if (this.messages >= 16) this.done = true;
  }

  get confirmed(): boolean {
    return this.dialect !== undefined;
  }

  result(byPort: boolean): SmbSession | undefined {
    if (this.dialect === undefined && !byPort) return undefined;
    return {
      uid: this.uid,
      ts: this.ts,
      detectedBy: this.dialect !== undefined ? 'banner' : 'port',
      ...(this.dialect !== undefined ? { dialect: this.dialect } : {}),
      commands: this.commands.slice(0, 16),
    };
  }
}

/** True for a NetBIOS session message carrying an SMB header. */
export function looksLikeSmb(b: Uint8Array): boolean {
  return b.length >= 8 && b[0] === 0 && b[5] === 0x53 && b[6] === 0x4d && b[7] === 0x42 && (b[4] === 0xff || b[4] === 0xfe || b[4] === 0xfd);
}

export interface RdpSession {
  readonly uid: string;
  readonly ts: number;
  readonly detectedBy: DetectedBy;
  /** The mstshash cookie (usually a user name) of the connection request. */
  readonly cookie?: string;
  /** RDP_NEG_REQ requestedProtocols bits: 1 TLS, 2 CredSSP (NLA), 8 RDSTLS. */
  readonly requestedProtocols?: number;
  /** RDP_NEG_RSP selectedProtocol, or the failure code when negotiation failed. */
  readonly selectedProtocol?: number;
  readonly negotiationFailure?: number;
}

/** RDP's X.224 connection request and confirm inside TPKT. */
export class RdpConnection {
  private cookie: string | undefined;
  private requested: number | undefined;
  private selected: number | undefined;
  private failure: number | undefined;
  private seen = [false, false];
  confirmed = false;

  constructor(
    private readonly uid: string,
    private readonly ts: number,
  ) {}

  get done(): boolean {
    return this.seen[0] === true && this.seen[1] === true;
  }

  data(isOrig: boolean, b: Uint8Array): void {
    const side = isOrig ? 0 : 1;
    if (this.seen[side]) return;
    this.seen[side] = true;
    // TPKT: version 3, reserved, length (2); X.224: length indicator, code (0xE0 request, 0xD0 confirm).
    if (b.length < 11 || b[0] !== 3) return;
    const code = b[5]! & 0xf0;
    const li = b[4]!;
    const end = Math.min(b.length, 5 + li);
    let pos = 11;
    if (isOrig && code === 0xe0) {
      this.confirmed = true;
      const text = latin1(b.subarray(pos, end));
      const m = /^Cookie: mstshash=([^\r\n]{0,128})\r\n/.exec(text);
      if (m) {
        this.cookie = printable(m[1] ?? '');
        pos += m[0].length;
      }
      if (end - pos >= 8 && b[pos] === 0x01) this.requested = readU32le(b, pos + 4);
    } else if (!isOrig && code === 0xd0) {
      this.confirmed = true;
      if (end - pos >= 8) {
        if (b[pos] === 0x02) this.selected = readU32le(b, pos + 4);
        else if (b[pos] === 0x03) this.failure = readU32le(b, pos + 4);
      }
    }
  }

  result(byPort: boolean): RdpSession | undefined {
    if (!this.confirmed && !byPort) return undefined;
    return {
      uid: this.uid,
      ts: this.ts,
      detectedBy: this.confirmed ? 'banner' : 'port',
      ...(this.cookie !== undefined ? { cookie: this.cookie } : {}),
      ...(this.requested !== undefined ? { requestedProtocols: this.requested } : {}),
      ...(this.selected !== undefined ? { selectedProtocol: this.selected } : {}),
      ...(this.failure !== undefined ? { negotiationFailure: this.failure } : {}),
    };
  }
}

/** TPKT carrying an X.224 connection request. */
export function looksLikeRdp(b: Uint8Array): boolean {
  return b.length >= 11 && b[0] === 3 && b[1] === 0 && (b[5]! & 0xf0) === 0xe0;
}

function readU32le(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

/** Keeps printable ASCII and escapes the rest, so banners cannot carry control characters into logs or the UI. */
export function printable(text: string): string {
  let s = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    s += c >= 0x20 && c < 0x7f && c !== 0x5c ? ch : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return s;
}
