// Test helpers for the capture parser: corpus paths, ground truth, tshark as an oracle, and a seeded PRNG.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';

const run = promisify(execFile);

export const PCAP_DIR = corpusPath('pcap');

export function pcapCorpusAvailable(): boolean {
  return hasCorpora() && existsSync(corpusPath('pcap', 'GROUND_TRUTH.json'));
}

export interface GroundTruthFile {
  readonly format: 'pcap' | 'pcapng';
  readonly packets: number;
  readonly linktype?: number;
  readonly nanosecond?: boolean;
  readonly first_ts?: number;
  readonly last_ts?: number;
  readonly sections?: number;
  readonly interfaces_linktypes?: number[];
}

export function groundTruth(): Record<string, GroundTruthFile> {
  const raw = JSON.parse(readFileSync(corpusPath('pcap', 'GROUND_TRUTH.json'), 'utf8')) as { files: Record<string, GroundTruthFile> };
  return raw.files;
}

export function corpusFile(name: string): string {
  return corpusPath('pcap', name);
}

export function zeekBaseline(...parts: string[]): string {
  return readFileSync(corpusPath('pcap', 'zeek-baselines', ...parts), 'utf8');
}

/** Rows of a Zeek ASCII log as objects keyed by the #fields header. */
export function zeekLog(...parts: string[]): Array<Record<string, string>> {
  const lines = zeekBaseline(...parts).split('\n');
  const fieldsLine = lines.find((l) => l.startsWith('#fields'));
  if (fieldsLine === undefined) return [];
  const fields = fieldsLine.split('\t').slice(1);
  return lines
    .filter((l) => l.length > 0 && !l.startsWith('#'))
    .map((l) => {
      const values = l.split('\t');
      return Object.fromEntries(fields.map((f, i) => [f, values[i] ?? '']));
    });
}

/** Runs tshark with an argument array (never a shell) and returns its standard output. */
export async function tshark(args: readonly string[]): Promise<string> {
  const { stdout } = await run('tshark', [...args], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** One conversation line of `tshark -q -z conv,<proto>`: the two endpoints, frames and bytes in total. */
export interface TsharkConversation {
  readonly a: string;
  readonly b: string;
  readonly frames: number;
  /** Absent when tshark printed the total with a unit other than bytes. */
  readonly bytes?: number;
}

export function parseConversations(text: string): Map<string, TsharkConversation[]> {
  const out = new Map<string, TsharkConversation[]>();
  let current: TsharkConversation[] | undefined;
  for (const line of text.split('\n')) {
    const head = /^(\S+) Conversations/.exec(line);
    if (head) {
      current = [];
      out.set(head[1] ?? '', current);
      continue;
    }
    const m = /^(\S+)\s+<->\s+(\S+)\s+(.*)$/.exec(line);
    if (m && current) {
      // Columns: frames, bytes, unit (<-), the same (->), the same (total), relative start, duration.
      const cols = (m[3] ?? '').trim().split(/\s+/);
      const frames = Number(cols[6]);
      const bytes = cols[8] === 'bytes' ? Number(cols[7]) : undefined;
      current.push({ a: m[1] ?? '', b: m[2] ?? '', frames, ...(bytes !== undefined ? { bytes } : {}) });
    }
  }
  return out;
}
