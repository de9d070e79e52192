// The parser registry: one plain loader per artefact kind, detected from magic bytes and content (never the file name's extension).
import { VitrineError } from '../../core/errors.js';
import type { ArtifactKind, EventDraft, RawRecordRef, ReliabilityGrade } from '../event.js';
import type { EvidenceFile } from '../evidence.js';
import type { TextLine } from '../text.js';

/** Loader options (spec: host for memory output, year and utc_offset_hours for auth logs). */
export interface LoaderOptions {
  /** Host name for events whose artefact does not name one (memory-forensics output); also a default elsewhere. */
  readonly host?: string;
  /** Year of the first syslog line (syslog headers carry none). */
  readonly year?: number;
  /** Offset of the syslog clock from UTC, in hours (syslog headers carry no zone). */
  readonly utcOffsetHours?: number;
}

/** A recoverable problem: what (a stable code) and where, never the offending value. */
export interface LoadWarning {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly offset?: number;
  readonly record?: number;
  readonly member?: string;
}

export type WarningLocation = Omit<LoadWarning, 'code' | 'message'>;

/** A member file of a directory artefact, already checked against the evidence root. */
export interface DirectoryMember {
  readonly name: string;
  readonly real: string;
  /** The real evidence root: every open of the member checks the descriptor is still below it. */
  readonly root: string;
  readonly size: number;
  readonly sha256: string;
}

export type ArtifactSource =
  | { readonly type: 'file'; readonly file: EvidenceFile; readonly real: string; readonly sha256: string; readonly size: number; readonly mtimeMs: number }
  | { readonly type: 'directory'; readonly members: readonly DirectoryMember[]; readonly sha256: string; readonly size: number; readonly mtimeMs: number };

/** What detection sees: the first bytes of a file, or a folder's member names and their first bytes. */
export type DetectSample =
  | { readonly type: 'file'; readonly head: Buffer; readonly size: number }
  | { readonly type: 'directory'; readonly members: readonly { readonly name: string; readonly head: Buffer }[] };

/** Bytes of a file's head that detection reads. */
export const DETECT_HEAD_BYTES = 64 * 1024;

/** What a loader states about one record (the draft's own fields); the context fills in the artefact, loader and grade. */
export interface DraftFields extends Pick<EventDraft, 'actor' | 'action' | 'object' | 'time' | 'host' | 'summary' | 'attributes'> {
  readonly record: Omit<RawRecordRef, 'artifactSha256'>;
}

export interface LoadContext {
  readonly options: LoaderOptions;
  /** Records a recoverable problem; the load goes on. */
  warn(code: string, message: string, where?: WarningLocation): void;
  /** Reports progress as a fraction of the artefact's bytes read (0..1). */
  progress(fraction: number): void;
  /** Throws `cancelled` when the job was stopped; loaders call it between records. */
  checkCancelled(): void;
  /** A draft event from this loader for this artefact. */
  event(fields: DraftFields): EventDraft;
}

/** One artefact format: how to recognise it and how to turn it into draft events. */
export interface Loader {
  readonly kind: ArtifactKind;
  /** Loader name and version as events record it (`authlog/1`). */
  readonly id: string;
  readonly reliability: ReliabilityGrade;
  /** What the loader reads: files, folders (memory-forensics output), or both. */
  readonly accepts: readonly ('file' | 'directory')[];
  /** 0 when the sample is not this format, up to 1 when certain. */
  detect(sample: DetectSample): number;
  load(source: ArtifactSource, ctx: LoadContext): Iterable<EventDraft>;
}

/** Loaders by kind; detection asks each and takes the most confident (ties: registration order). */
export class LoaderRegistry {
  private readonly byKind = new Map<ArtifactKind, Loader>();

  register(loader: Loader): this {
    if (this.byKind.has(loader.kind)) throw new VitrineError('internal', 'a loader kind is registered twice');
    this.byKind.set(loader.kind, loader);
    return this;
  }

  get(kind: ArtifactKind): Loader {
    const loader = this.byKind.get(kind);
    if (!loader) throw new VitrineError('not_found', 'no loader is registered for that kind');
    return loader;
  }

  kinds(): ArtifactKind[] {
    return [...this.byKind.keys()];
  }

  /** The kind whose loader is most confident about the sample, or null when none recognises it. */
  detect(sample: DetectSample): { kind: ArtifactKind; confidence: number } | null {
    let best: { kind: ArtifactKind; confidence: number } | null = null;
    for (const loader of this.byKind.values()) {
      if (!loader.accepts.includes(sample.type)) continue;
      let confidence: number;
      try {
        confidence = loader.detect(sample);
      } catch {
        confidence = 0;
      }
      if (confidence > 0 && (best === null || confidence > best.confidence)) best = { kind: loader.kind, confidence };
    }
    return best;
  }
}

/** The first non-blank lines of a head sample, decoded leniently, at most `n`; `complete` when the head is the whole file. */
export function headLines(head: Buffer, n: number, complete = false): string[] {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\n');
  // The last piece may be cut by the sample's end: drop it unless the sample is the whole file.
  if (!complete && lines.length > 1) lines.pop();
  const out: string[] = [];
  for (const line of lines) {
    const l = line.replace(/\r$/, '');
    if (l.trim() === '') continue;
    out.push(l);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * A JSON line's value, or undefined after a `bad_json` warning at the line (and the member, when given): JSON.parse
 * never gives undefined. The line's place is built only for the warning.
 */
export function jsonLine(line: TextLine, ctx: LoadContext, member?: string): unknown {
  try {
    return JSON.parse(line.text);
  } catch {
    const where = member ? { line: line.number, offset: line.offset, member } : { line: line.number, offset: line.offset };
    ctx.warn('bad_json', line.terminator === 0 ? 'the last line is cut short or not JSON' : 'a line is not JSON', where);
    return undefined;
  }
}

/** Cuts long text for summaries and attributes, so one huge field cannot swell every event. */
export function clip(text: string, max = 4096): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
