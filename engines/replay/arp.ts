// ARP requests per sender (who asked for how many addresses, when): the capture parser counts ARP frames only, and a sweep of a LAN is mostly ARP.
import { CaptureReader, feedBytes, feedFile, type RawPacket } from './capture/index.js';
import { WarningCounter } from './capture/warnings.js';

/** Requests of one sender. Targets are bounded (MAX_TARGETS in all); `requests` counts on past it. */
export interface ArpSender {
  readonly sender: string;
  /** Each address asked for, with the first request for it. */
  readonly targets: Map<string, { readonly packet: number; readonly ts: number }>;
  requests: number;
  firstTs: number;
  lastTs: number;
}

export type ArpSummary = ReadonlyMap<string, ArpSender>;

const MAX_TARGETS = 200_000;
const ETHERTYPE_ARP = 0x0806;
const VLAN_TPIDS = new Set([0x8100, 0x88a8, 0x9100]);

/** Offset of the ARP header in a frame of this link type, or -1 when the frame is not ARP. */
function arpOffset(p: RawPacket): number {
  const d = p.data;
  const u16 = (at: number): number => ((d[at] ?? 0) << 8) | (d[at + 1] ?? 0);
  if (p.linkType === 1) {
    let at = 12;
    let type = u16(at);
    for (let tags = 0; VLAN_TPIDS.has(type) && tags < 8; tags++) {
      at += 4;
      type = u16(at);
    }
    return type === ETHERTYPE_ARP ? at + 2 : -1;
  }
  if (p.linkType === 113) return u16(14) === ETHERTYPE_ARP ? 16 : -1; // Linux SLL
  if (p.linkType === 276) return u16(0) === ETHERTYPE_ARP ? 20 : -1; // Linux SLL2
  return -1;
}

class ArpCollector {
  readonly senders = new Map<string, ArpSender>();
  private targets = 0;

  packet(p: RawPacket): void {
    const at = arpOffset(p);
    if (at < 0) return;
    const d = p.data;
    // Ethernet/IPv4 ARP only: hardware type 1, protocol 0x0800, lengths 6 and 4, operation 1 (request).
    if (d.length < at + 28) return;
    if (d[at] !== 0 || d[at + 1] !== 1 || d[at + 2] !== 8 || d[at + 3] !== 0 || d[at + 4] !== 6 || d[at + 5] !== 4) return;
    if (d[at + 6] !== 0 || d[at + 7] !== 1) return;
    const spa = `${d[at + 14]}.${d[at + 15]}.${d[at + 16]}.${d[at + 17]}`;
    const tpa = `${d[at + 24]}.${d[at + 25]}.${d[at + 26]}.${d[at + 27]}`;
    // Probes (sender 0.0.0.0) and gratuitous announcements (asking for oneself) are not lookups of others.
    if (spa === '0.0.0.0' || spa === tpa) return;
    let s = this.senders.get(spa);
    if (s === undefined) {
      s = { sender: spa, targets: new Map(), requests: 0, firstTs: p.ts, lastTs: p.ts };
      this.senders.set(spa, s);
    }
    s.requests += 1;
    s.lastTs = p.ts;
    if (!s.targets.has(tpa) && this.targets < MAX_TARGETS) {
      s.targets.set(tpa, { packet: p.index, ts: p.ts });
      this.targets += 1;
    }
  }
}

/** Reads ARP requests from a capture file (a second, light pass: only frames with an ARP ethertype are looked at). */
export async function readArpFile(path: string, signal?: AbortSignal): Promise<ArpSummary> {
  const c = new ArpCollector();
  const reader = new CaptureReader(new WarningCounter(), (p) => c.packet(p));
  await feedFile(reader, path, signal === undefined ? {} : { signal });
  return c.senders;
}

/** The same over bytes in memory. */
export function readArpBytes(bytes: Uint8Array): ArpSummary {
  const c = new ArpCollector();
  const reader = new CaptureReader(new WarningCounter(), (p) => c.packet(p));
  feedBytes(reader, bytes);
  return c.senders;
}
