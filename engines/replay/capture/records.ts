// Finished connections kept as columns, each read through a two-field view that is a ConnectionRecord.
import { grownColumn } from '../../core/columns.js';
import type { ConnectionRecord, DirectionStats, TcpSummary, TransportName } from './flows.js';

/** Per-side values of a row in `sides`: packets, IP bytes, payload bytes and Zeek's bytes, the originator's first. */
const SIDE = 4;
const ROW = 2 * SIDE;

/**
 * Finished connections as columns, in the order they ended. A capture keeps 10^5 connections to its end: as objects
 * (a record, two direction objects and three boxed times each) they were the largest part of the heap the collector
 * copies and marks. Here the numbers lie in typed arrays outside the heap, and the strings (host texts, states,
 * histories, service lists, TCP summaries) are shared between rows and held by reference. `views()` gives each row
 * an object that reads it.
 */
export class ConnectionColumns {
  count = 0;
  /** uid of the row, or '' when it is `C` and the serial (made on first read). */
  readonly uid: string[] = [];
  serial = new Float64Array(0);
  proto = new Uint8Array(0);
  ipProto = new Uint8Array(0);
  readonly origH: string[] = [];
  origP = new Uint16Array(0);
  readonly respH: string[] = [];
  respP = new Uint16Array(0);
  startTs = new Float64Array(0);
  lastTs = new Float64Array(0);
  /** ROW numbers per row (see SIDE). */
  sides = new Float64Array(0);
  readonly connState: string[] = [];
  readonly history: string[] = [];
  flipped = new Uint8Array(0);
  readonly service: Array<readonly string[]> = [];
  firstPacket = new Float64Array(0);
  lastPacket = new Float64Array(0);
  fragmentFrames = new Float64Array(0);
  /** The TCP summary (undefined for other transports). */
  readonly tcp: Array<TcpSummary | undefined> = [];
  /** Outermost VLAN id (0: untagged). */
  vlan = new Uint16Array(0);
  private capacity = 0;

  /** A new row (its number); fill every column of it before reading. */
  add(): number {
    const n = this.count;
    if (n === this.capacity) this.grow(Math.max(1024, 2 * n));
    this.count = n + 1;
    return n;
  }

  /** One view per row, in row order. */
  views(): ConnectionRecord[] {
    const out = new Array<ConnectionRecord>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = new StoredConnection(this, i);
    return out;
  }

  private grow(rows: number): void {
    this.serial = grownColumn(this.serial, rows);
    this.proto = grownColumn(this.proto, rows);
    this.ipProto = grownColumn(this.ipProto, rows);
    this.origP = grownColumn(this.origP, rows);
    this.respP = grownColumn(this.respP, rows);
    this.startTs = grownColumn(this.startTs, rows);
    this.lastTs = grownColumn(this.lastTs, rows);
    this.sides = grownColumn(this.sides, rows * ROW);
    this.flipped = grownColumn(this.flipped, rows);
    this.firstPacket = grownColumn(this.firstPacket, rows);
    this.lastPacket = grownColumn(this.lastPacket, rows);
    this.fragmentFrames = grownColumn(this.fragmentFrames, rows);
    this.vlan = grownColumn(this.vlan, rows);
    this.capacity = rows;
  }
}

/** Names of the `proto` column's codes (the flow table's). */
const PROTO_NAMES: readonly TransportName[] = ['tcp', 'udp', 'icmp', 'other'];

/**
 * The serial number in the uid (`C` and the serial) of a record the parser made, read without making the uid text;
 * -1 for any other record (a conn.log's), whose uid must be read.
 */
export function parsedSerial(c: ConnectionRecord): number {
  return c instanceof StoredConnection ? c.serial : -1;
}

/**
 * One finished connection read from the columns: every field of ConnectionRecord is a getter, and `toJSON` gives the
 * object the record literal was (the same keys in the same order, `tcp` and `vlan` only when set), so JSON of an
 * analysis is unchanged. `orig` and `resp` make a small object on each read.
 */
class StoredConnection implements ConnectionRecord {
  constructor(
    private readonly c: ConnectionColumns,
    private readonly i: number,
  ) {}

  get serial(): number {
    return this.c.serial[this.i]!;
  }

  get uid(): string {
    const c = this.c;
    let uid = c.uid[this.i]!;
    if (uid === '') {
      uid = `C${c.serial[this.i]!}`;
      c.uid[this.i] = uid;
    }
    return uid;
  }

  get proto(): TransportName {
    return PROTO_NAMES[this.c.proto[this.i]!] ?? 'other';
  }

  get ipProto(): number {
    return this.c.ipProto[this.i]!;
  }

  get origH(): string {
    return this.c.origH[this.i]!;
  }

  get origP(): number {
    return this.c.origP[this.i]!;
  }

  get respH(): string {
    return this.c.respH[this.i]!;
  }

  get respP(): number {
    return this.c.respP[this.i]!;
  }

  get startTs(): number {
    return this.c.startTs[this.i]!;
  }

  get lastTs(): number {
    return this.c.lastTs[this.i]!;
  }

  get duration(): number {
    return this.c.lastTs[this.i]! - this.c.startTs[this.i]!;
  }

  get orig(): DirectionStats {
    const s = this.c.sides;
    const k = this.i * ROW;
    return { packets: s[k]!, ipBytes: s[k + 1]!, payloadBytes: s[k + 2]!, bytes: s[k + 3]! };
  }

  get resp(): DirectionStats {
    const s = this.c.sides;
    const k = this.i * ROW + SIDE;
    return { packets: s[k]!, ipBytes: s[k + 1]!, payloadBytes: s[k + 2]!, bytes: s[k + 3]! };
  }

  get connState(): string {
    return this.c.connState[this.i]!;
  }

  get history(): string {
    return this.c.history[this.i]!;
  }

  get flipped(): boolean {
    return this.c.flipped[this.i] === 1;
  }

  get service(): readonly string[] {
    return this.c.service[this.i]!;
  }

  get tcp(): TcpSummary | undefined {
    return this.c.tcp[this.i];
  }

  get vlan(): number | undefined {
    const v = this.c.vlan[this.i]!;
    return v > 0 ? v : undefined;
  }

  get firstPacket(): number {
    return this.c.firstPacket[this.i]!;
  }

  get lastPacket(): number {
    return this.c.lastPacket[this.i]!;
  }

  get fragmentFrames(): number {
    return this.c.fragmentFrames[this.i]!;
  }

  /** The record as a plain object, keys in the order of ConnectionRecord's literal (JSON and structured copies). */
  toJSON(): ConnectionRecord {
    const tcp = this.tcp;
    const vlan = this.vlan;
    const plain = {
      uid: this.uid,
      proto: this.proto,
      ipProto: this.ipProto,
      origH: this.origH,
      origP: this.origP,
      respH: this.respH,
      respP: this.respP,
      startTs: this.startTs,
      lastTs: this.lastTs,
      duration: this.duration,
      orig: this.orig,
      resp: this.resp,
      connState: this.connState,
      history: this.history,
      flipped: this.flipped,
      service: this.service,
      firstPacket: this.firstPacket,
      lastPacket: this.lastPacket,
      fragmentFrames: this.fragmentFrames,
      ...(tcp !== undefined ? { tcp } : {}),
      ...(vlan !== undefined ? { vlan } : {}),
    };
    return plain;
  }
}
