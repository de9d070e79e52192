// Connections by uid for the rules and stories: an index by the parser's serial numbers (uids C1, C2, ...) where the uids are such, a map otherwise.
import { parsedSerial, type ConnectionRecord } from '../capture/index.js';

/** What the rules and stories ask of the connections by uid (a Map is one). */
export interface UidLookup {
  get(uid: string): ConnectionRecord | undefined;
  has(uid: string): boolean;
}

/** The serial number of a record's uid when it has the form C<digits> (at most 9 digits), or -1; the parser's records tell it without making the uid. */
function recordSerial(c: ConnectionRecord): number {
  const s = parsedSerial(c);
  return s >= 0 && s <= 999_999_999 ? s : serialOf(c.uid);
}

/** The serial number of a uid of the form C<digits> (at most 9 digits), or -1. */
function serialOf(uid: string): number {
  const n = uid.length;
  if (n < 2 || n > 10 || uid.charCodeAt(0) !== 0x43) return -1;
  let v = 0;
  for (let i = 1; i < n; i++) {
    const d = uid.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Connections by uid, answering as a Map built by setting each connection in order would. A capture's uids are
 * serial numbers, so the index is one Int32Array from serial to position (no hashing of 10^5 strings); a found
 * position still has its uid compared, so a uid spelt otherwise (C007) finds nothing. Uids of another form
 * (a Zeek conn.log's), repeated serials or a sparse range fall back to a Map.
 */
export class UidIndex implements UidLookup {
  private readonly positions: Int32Array | undefined;
  private readonly base: number;
  private readonly map: Map<string, ConnectionRecord> | undefined;

  constructor(private readonly connections: readonly ConnectionRecord[]) {
    let min = Infinity;
    let max = -1;
    for (const c of connections) {
      const s = recordSerial(c);
      if (s < 0) {
        max = -1;
        break;
      }
      if (s < min) min = s;
      if (s > max) max = s;
    }
    const span = max - min + 1;
    let positions: Int32Array | undefined = max >= 0 && span <= 4 * connections.length + 1024 ? new Int32Array(span).fill(-1) : undefined;
    if (positions !== undefined) {
      for (let i = 0; i < connections.length; i++) {
        const at = recordSerial(connections[i]!) - min;
        if (positions[at] !== -1) {
          positions = undefined; // a repeated serial: leave it to a Map, whose last one wins
          break;
        }
        positions[at] = i;
      }
    }
    this.positions = positions;
    this.base = min;
    if (positions === undefined) {
      const map = new Map<string, ConnectionRecord>();
      for (const c of connections) map.set(c.uid, c);
      this.map = map;
    } else this.map = undefined;
  }

  get(uid: string): ConnectionRecord | undefined {
    const positions = this.positions;
    if (positions === undefined) return this.map?.get(uid);
    const at = serialOf(uid) - this.base;
    if (at < 0 || at >= positions.length) return undefined;
    const i = positions[at]!;
    if (i < 0) return undefined;
    const c = this.connections[i]!;
    return c.uid === uid ? c : undefined;
  }

  has(uid: string): boolean {
    return this.get(uid) !== undefined;
  }
}
