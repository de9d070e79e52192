// go.sum: one entry per (module, version) with its h1 hashes; the `/go.mod` suffix is dropped from the version.
import { ParseContext, splitLines } from './context.js';
import { isGoVersion } from './gover.js';
import type { ParseOptions } from './types.js';

interface Pending {
  name: string;
  version: string;
  /** Line of the module-content hash, else of the go.mod hash. */
  line: number;
  hasContentLine: boolean;
  checksums: string[];
}

/** Reads a go.sum. */
export function parseGoSum(text: string, options: ParseOptions = {}): { ctx: ParseContext } {
  const ctx = new ParseContext(options);
  const byKey = new Map<string, Pending>();
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const l = (lines[i] ?? '').trim();
    if (l === '') continue;
    const fields = l.split(/\s+/);
    const [path, rawVersion, hash] = fields;
    if (fields.length !== 3 || path === undefined || rawVersion === undefined || hash === undefined) {
      ctx.warn('unparsed_line', 'a go.sum line does not hold a module, a version and a hash', i);
      continue;
    }
    const goModOnly = rawVersion.endsWith('/go.mod');
    const version = goModOnly ? rawVersion.slice(0, -'/go.mod'.length) : rawVersion;
    if (!isGoVersion(version)) {
      ctx.warn('malformed_entry', 'a go.sum line holds a version that is not a Go semantic version', i);
      continue;
    }
    const key = `${path} ${version}`;
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, { name: path, version, line: i, hasContentLine: !goModOnly, checksums: [hash] });
      continue;
    }
    seen.checksums.push(hash);
    if (!goModOnly && !seen.hasContentLine) {
      seen.line = i;
      seen.hasContentLine = true;
    }
  }
  for (const p of byKey.values())
    ctx.add({ name: p.name, version: p.version, line: p.line, keyLine: p.line, source: 'registry', checksums: p.checksums });
  return { ctx };
}
