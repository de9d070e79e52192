// Evidence sets: a folder named as evidence is either one artefact (memory-forensics output) or a set of artefacts (a folder of EVTX files), each detected on its own.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { VitrineError, type ErrorCode } from '../core/errors.js';
import type { ArtifactKind } from './event.js';
import { resolveEvidence, withEvidenceFile, type EvidencePath } from './evidence.js';
import { MAX_DIRECTORY_MEMBERS } from './ingest.js';
import { defaultRegistry } from './loaders/index.js';
import { DETECT_HEAD_BYTES, type LoaderRegistry } from './loaders/registry.js';

/** Folder levels a set is walked down (the folder named is level 0). */
export const MAX_SET_DEPTH = 8;

export interface ExpandOptions {
  readonly evidenceRoot: string;
  /** The kind asked for: a kind that reads folders keeps every folder whole. */
  readonly kind?: ArtifactKind;
  readonly registry?: LoaderRegistry;
}

/** A member of a folder that could not even be listed or checked: reported in the case, never read. */
export interface SkippedMember {
  /** Relative to the evidence root. */
  readonly path: string;
  readonly code: ErrorCode;
  readonly reason: string;
}

export interface ExpandedEvidence {
  /** Artefacts to ingest (real paths below the evidence root), in the order given, each folder's members by name. */
  readonly artefacts: readonly string[];
  readonly skipped: readonly SkippedMember[];
}

interface Entry {
  readonly name: string;
  readonly where: EvidencePath;
}

function listed(where: EvidencePath, skipped: SkippedMember[]): Entry[] {
  let names: string[];
  try {
    names = readdirSync(where.real).sort();
  } catch (err) {
    throw new VitrineError('unavailable', 'an evidence folder cannot be listed', { cause: err });
  }
  const out: Entry[] = [];
  for (const name of names) {
    try {
      out.push({ name, where: resolveEvidence(where.root, path.join(where.real, name)) });
    } catch (err) {
      const e = err instanceof VitrineError ? err : new VitrineError('unavailable', 'the file cannot be read', { cause: err });
      const rel = path.relative(where.root, path.join(where.real, name)).split(path.sep).join('/');
      skipped.push({ path: rel, code: e.code, reason: e.message });
    }
  }
  return out;
}

/**
 * Whether a folder is one memory-forensics artefact: some member is memory output and no member is another
 * recognised kind. Anything else (a folder of logs, a mixed folder) is a set.
 */
function isWholeArtefact(files: readonly Entry[], registry: LoaderRegistry, kind: ArtifactKind | undefined): boolean {
  if (kind !== undefined) return registry.get(kind).accepts.includes('directory');
  let memory = false;
  for (const f of files) {
    let detected: ArtifactKind | null;
    try {
      const head = withEvidenceFile(f.where.real, (file) => file.read(0, DETECT_HEAD_BYTES), f.where.root);
      detected = registry.detect({ type: 'file', head, size: f.where.size })?.kind ?? null;
    } catch {
      detected = null;
    }
    if (detected === 'memory') memory = true;
    else if (detected !== null) return false;
  }
  return memory;
}

/**
 * The artefacts behind the paths given (real paths already checked below the evidence root): a file stays itself;
 * a folder stays whole when it is memory-forensics output (or the kind asked for reads folders), and otherwise
 * becomes its files, walked down at most MAX_SET_DEPTH levels, sub-folders of memory output again kept whole. At most
 * MAX_DIRECTORY_MEMBERS artefacts come from one folder; entries that lead outside the root are skipped and listed.
 */
export function expandEvidence(targets: readonly string[], options: ExpandOptions): ExpandedEvidence {
  const registry = options.registry ?? defaultRegistry();
  const artefacts: string[] = [];
  const skipped: SkippedMember[] = [];
  for (const target of targets) {
    const top = resolveEvidence(options.evidenceRoot, target);
    if (!top.isDirectory) {
      artefacts.push(top.real);
      continue;
    }
    const found: string[] = [];
    const walk = (where: EvidencePath, depth: number): void => {
      const entries = listed(where, skipped);
      const files = entries.filter((e) => !e.where.isDirectory);
      if (isWholeArtefact(files, registry, options.kind)) {
        found.push(where.real);
        return;
      }
      for (const e of entries) {
        if (found.length > MAX_DIRECTORY_MEMBERS) throw new VitrineError('payload_too_large', `an evidence folder may hold at most ${MAX_DIRECTORY_MEMBERS} artefacts`);
        if (!e.where.isDirectory) found.push(e.where.real);
        else if (depth < MAX_SET_DEPTH) walk(e.where, depth + 1);
        else skipped.push({ path: e.where.relative, code: 'payload_too_large', reason: `a folder more than ${MAX_SET_DEPTH} levels down was not read` });
      }
    };
    walk(top, 0);
    if (found.length > MAX_DIRECTORY_MEMBERS) throw new VitrineError('payload_too_large', `an evidence folder may hold at most ${MAX_DIRECTORY_MEMBERS} artefacts`);
    artefacts.push(...found);
  }
  // A file named twice (itself and inside a folder given too) is read once.
  return { artefacts: [...new Set(artefacts)], skipped };
}
