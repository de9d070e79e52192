// Kept HTTP transactions and DNS messages as columns, each read through a two-field view that is the record.
import { grownColumn } from '../../../core/columns.js';
import type { DnsAnswer, DnsBody, DnsEdns, DnsPlace, DnsQuestion } from './dns.js';
import type { HttpTransaction } from './http.js';

/**
 * Texts that repeat across transactions (methods, versions, hosts, user agents, status messages ...) held once, each
 * by its number; 0 is undefined.
 */
class Words {
  readonly list: Array<string | undefined> = [undefined];
  private readonly index = new Map<string, number>();

  code(s: string | undefined): number {
    if (s === undefined) return 0;
    let n = this.index.get(s);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(s);
      this.index.set(s, n);
    }
    return n;
  }
}

/**
 * HTTP transactions as columns, in the order they were kept. A busy capture keeps 10^5 of them to its end: as object
 * literals of eighteen fields (and a boxed time) they were the largest kept part of the application layer. Here the
 * numbers lie in typed arrays outside the heap, the repeating texts are numbers into one word list, and only the uid
 * and the URI are held per row. `add()` copies a finished transaction in and gives the view that reads it.
 */
export class HttpColumns {
  count = 0;
  private readonly words = new Words();
  readonly uid: string[] = [];
  readonly uri: string[] = [];
  ts = new Float64Array(0);
  packet = new Float64Array(0);
  depth = new Float64Array(0);
  requestBodyLength = new Float64Array(0);
  /** -1: no response. */
  responseBodyLength = new Float64Array(0);
  /** -1: no response line. */
  statusCode = new Int32Array(0);
  midstream = new Uint8Array(0);
  /** Word numbers, WORDS per row in the order of WORD_*. */
  wordCodes = new Uint32Array(0);
  private capacity = 0;

  /** Copies `t` into a new row and gives the row's view. */
  add(t: HttpTransaction): HttpTransaction {
    const n = this.count;
    if (n === this.capacity) this.grow(Math.max(1024, 2 * n));
    this.count = n + 1;
    this.uid.push(t.uid);
    this.uri.push(t.uri);
    this.ts[n] = t.ts;
    this.packet[n] = t.packet;
    this.depth[n] = t.depth;
    this.requestBodyLength[n] = t.requestBodyLength;
    this.responseBodyLength[n] = t.responseBodyLength ?? -1;
    this.statusCode[n] = t.statusCode ?? -1;
    this.midstream[n] = t.midstream ? 1 : 0;
    const w = this.words;
    const k = n * WORDS;
    const codes = this.wordCodes;
    codes[k + WORD_METHOD] = w.code(t.method);
    codes[k + WORD_VERSION] = w.code(t.version);
    codes[k + WORD_HOST] = w.code(t.host);
    codes[k + WORD_USER_AGENT] = w.code(t.userAgent);
    codes[k + WORD_REFERRER] = w.code(t.referrer);
    codes[k + WORD_AUTH_SCHEME] = w.code(t.authScheme);
    codes[k + WORD_BASIC_USER] = w.code(t.basicUser);
    codes[k + WORD_STATUS_MESSAGE] = w.code(t.statusMessage);
    codes[k + WORD_RESPONSE_VERSION] = w.code(t.responseVersion);
    return new StoredHttp(this, n);
  }

  /**
   * `views` (this table's, one per row in row order) sorted by time, stably: the order sorting the views by their
   * `ts` gives, found by sorting row numbers on the time column (a comparator reading views would call two getters).
   */
  byTime(views: HttpTransaction[]): HttpTransaction[] {
    const ts = this.ts;
    const rows = new Array<number>(views.length);
    for (let i = 0; i < rows.length; i++) rows[i] = i;
    rows.sort((a, b) => ts[a]! - ts[b]!);
    for (let i = 0; i < rows.length; i++) views[i] = new StoredHttp(this, rows[i]!);
    return views;
  }

  /** The word of `row` at `slot` (a WORD_* offset). */
  word(row: number, slot: number): string | undefined {
    return this.words.list[this.wordCodes[row * WORDS + slot]!];
  }

  private grow(rows: number): void {
    this.ts = grownColumn(this.ts, rows);
    this.packet = grownColumn(this.packet, rows);
    this.depth = grownColumn(this.depth, rows);
    this.requestBodyLength = grownColumn(this.requestBodyLength, rows);
    this.responseBodyLength = grownColumn(this.responseBodyLength, rows);
    this.statusCode = grownColumn(this.statusCode, rows);
    this.midstream = grownColumn(this.midstream, rows);
    this.wordCodes = grownColumn(this.wordCodes, rows * WORDS);
    this.capacity = rows;
  }
}

const WORD_METHOD = 0;
const WORD_VERSION = 1;
const WORD_HOST = 2;
const WORD_USER_AGENT = 3;
const WORD_REFERRER = 4;
const WORD_AUTH_SCHEME = 5;
const WORD_BASIC_USER = 6;
const WORD_STATUS_MESSAGE = 7;
const WORD_RESPONSE_VERSION = 8;
const WORDS = 9;

/**
 * One kept transaction read from the columns: every field of HttpTransaction is a getter, and `toJSON` gives the
 * object the reader's literal was (the same keys in the same order; undefined ones, which JSON leaves out, too).
 */
class StoredHttp implements HttpTransaction {
  constructor(
    private readonly c: HttpColumns,
    private readonly i: number,
  ) {}

  get uid(): string {
    return this.c.uid[this.i]!;
  }

  get ts(): number {
    return this.c.ts[this.i]!;
  }

  get packet(): number {
    return this.c.packet[this.i]!;
  }

  get depth(): number {
    return this.c.depth[this.i]!;
  }

  get method(): string {
    return this.c.word(this.i, WORD_METHOD) ?? '';
  }

  get uri(): string {
    return this.c.uri[this.i]!;
  }

  get version(): string {
    return this.c.word(this.i, WORD_VERSION) ?? '';
  }

  get host(): string | undefined {
    return this.c.word(this.i, WORD_HOST);
  }

  get userAgent(): string | undefined {
    return this.c.word(this.i, WORD_USER_AGENT);
  }

  get referrer(): string | undefined {
    return this.c.word(this.i, WORD_REFERRER);
  }

  get authScheme(): string | undefined {
    return this.c.word(this.i, WORD_AUTH_SCHEME);
  }

  get basicUser(): string | undefined {
    return this.c.word(this.i, WORD_BASIC_USER);
  }

  get requestBodyLength(): number {
    return this.c.requestBodyLength[this.i]!;
  }

  get statusCode(): number | undefined {
    const v = this.c.statusCode[this.i]!;
    return v >= 0 ? v : undefined;
  }

  get statusMessage(): string | undefined {
    return this.c.word(this.i, WORD_STATUS_MESSAGE);
  }

  get responseVersion(): string | undefined {
    return this.c.word(this.i, WORD_RESPONSE_VERSION);
  }

  get responseBodyLength(): number | undefined {
    const v = this.c.responseBodyLength[this.i]!;
    return v >= 0 ? v : undefined;
  }

  get midstream(): boolean {
    return this.c.midstream[this.i] === 1;
  }

  /** The transaction as a plain object, keys in the order of the HTTP reader's literal (JSON and structured copies). */
  toJSON(): HttpTransaction {
    return {
      uid: this.uid,
      ts: this.ts,
      packet: this.packet,
      depth: this.depth,
      method: this.method,
      uri: this.uri,
      version: this.version,
      requestBodyLength: this.requestBodyLength,
      midstream: this.midstream,
      host: this.host,
      userAgent: this.userAgent,
      referrer: this.referrer,
      authScheme: this.authScheme,
      basicUser: this.basicUser,
      statusCode: this.statusCode,
      responseVersion: this.responseVersion,
      statusMessage: this.statusMessage,
      responseBodyLength: this.responseBodyLength,
    };
  }
}

/** A kept DNS message: where it was seen, then the message (DnsMessage's fields). */
type DnsRecord = DnsPlace & DnsBody;

/** Bits of a row's `flags`: the header's flag word as sent (QR, opcode, AA, TC, RD, RA, rcode) and the transport. */
const QR = 0x8000;
const AA = 0x0400;
const TC = 0x0200;
const RD = 0x0100;
const RA = 0x0080;
/** Not a header bit (Z, always zero here): set when the message came over TCP. */
const OVER_TCP = 0x0040;

/**
 * DNS messages as columns, in the order they were kept. As object literals of seventeen fields (and a boxed time)
 * they were, after HTTP, the largest kept part of the application layer; their questions and answers are already
 * shared lists, held here by reference. `add()` copies a message in and gives the view that reads it.
 */
export class DnsColumns {
  count = 0;
  readonly uid: string[] = [];
  readonly questions: Array<readonly DnsQuestion[]> = [];
  readonly answers: Array<readonly DnsAnswer[]> = [];
  /** EDNS of the row, by row (most rows have none: a sparse map, not a column). */
  readonly edns = new Map<number, DnsEdns>();
  ts = new Float64Array(0);
  packet = new Float64Array(0);
  /** Server port, message id, flags (see QR ... OVER_TCP), authority count, additional count: SHORTS per row. */
  shorts = new Uint16Array(0);
  private capacity = 0;

  add(m: DnsRecord): DnsRecord {
    const n = this.count;
    if (n === this.capacity) this.grow(Math.max(1024, 2 * n));
    this.count = n + 1;
    this.uid.push(m.uid);
    this.questions.push(m.questions);
    this.answers.push(m.answers);
    if (m.edns !== undefined) this.edns.set(n, m.edns);
    this.ts[n] = m.ts;
    this.packet[n] = m.packet;
    const k = n * SHORTS;
    const s = this.shorts;
    s[k] = m.port;
    s[k + 1] = m.id;
    s[k + 2] =
      (m.response ? QR : 0) |
      ((m.opcode & 0x0f) << 11) |
      (m.authoritative ? AA : 0) |
      (m.truncated ? TC : 0) |
      (m.recursionDesired ? RD : 0) |
      (m.recursionAvailable ? RA : 0) |
      (m.transport === 'tcp' ? OVER_TCP : 0) |
      (m.rcode & 0x0f);
    s[k + 3] = m.authorityCount;
    s[k + 4] = m.additionalCount;
    return new StoredDns(this, n);
  }

  private grow(rows: number): void {
    this.ts = grownColumn(this.ts, rows);
    this.packet = grownColumn(this.packet, rows);
    this.shorts = grownColumn(this.shorts, rows * SHORTS);
    this.capacity = rows;
  }
}

const SHORTS = 5;

/**
 * One kept DNS message read from the columns: every field of DnsMessage is a getter, and `toJSON` gives the object
 * the parser's literal was (the same keys in the same order, `edns` only when the message had it).
 */
class StoredDns implements DnsRecord {
  constructor(
    private readonly c: DnsColumns,
    private readonly i: number,
  ) {}

  private flags(): number {
    return this.c.shorts[this.i * SHORTS + 2]!;
  }

  get uid(): string {
    return this.c.uid[this.i]!;
  }

  get ts(): number {
    return this.c.ts[this.i]!;
  }

  get packet(): number {
    return this.c.packet[this.i]!;
  }

  get transport(): 'udp' | 'tcp' {
    return (this.flags() & OVER_TCP) !== 0 ? 'tcp' : 'udp';
  }

  get port(): number {
    return this.c.shorts[this.i * SHORTS]!;
  }

  get id(): number {
    return this.c.shorts[this.i * SHORTS + 1]!;
  }

  get response(): boolean {
    return (this.flags() & QR) !== 0;
  }

  get opcode(): number {
    return (this.flags() >> 11) & 0x0f;
  }

  get rcode(): number {
    return this.flags() & 0x0f;
  }

  get authoritative(): boolean {
    return (this.flags() & AA) !== 0;
  }

  get truncated(): boolean {
    return (this.flags() & TC) !== 0;
  }

  get recursionDesired(): boolean {
    return (this.flags() & RD) !== 0;
  }

  get recursionAvailable(): boolean {
    return (this.flags() & RA) !== 0;
  }

  get questions(): readonly DnsQuestion[] {
    return this.c.questions[this.i]!;
  }

  get answers(): readonly DnsAnswer[] {
    return this.c.answers[this.i]!;
  }

  get authorityCount(): number {
    return this.c.shorts[this.i * SHORTS + 3]!;
  }

  get additionalCount(): number {
    return this.c.shorts[this.i * SHORTS + 4]!;
  }

  get edns(): DnsEdns | undefined {
    return this.c.edns.get(this.i);
  }

  /** The message as a plain object, keys in the order of the parser's literal (JSON and structured copies). */
  toJSON(): DnsRecord {
    const edns = this.edns;
    return {
      uid: this.uid,
      ts: this.ts,
      packet: this.packet,
      transport: this.transport,
      port: this.port,
      id: this.id,
      response: this.response,
      opcode: this.opcode,
      rcode: this.rcode,
      authoritative: this.authoritative,
      truncated: this.truncated,
      recursionDesired: this.recursionDesired,
      recursionAvailable: this.recursionAvailable,
      questions: this.questions,
      answers: this.answers,
      authorityCount: this.authorityCount,
      additionalCount: this.additionalCount,
      ...(edns !== undefined ? { edns } : {}),
    };
  }
}
