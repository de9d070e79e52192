/**
 * Runs the recheck ReDoS checker over every regular expression found in the
 * given source folders. Patterns are deduplicated by (source, flags).
 */
import { check, type Diagnostics } from 'recheck';
import { extractRegexes, listSources, type FoundRegex } from './extract.js';

export interface Checked {
  source: string;
  flags: string;
  sites: FoundRegex[];
  diagnostics: Diagnostics;
}

/** Fixed parameters so that a run is reproducible (the fuzzer is seeded). */
export const CHECK_PARAMS = { randomSeed: 42, timeout: 10_000 } as const;

export function collect(root: string, dirs: readonly string[], extra: readonly FoundRegex[] = []): { literal: Map<string, FoundRegex[]>; dynamic: FoundRegex[] } {
  const literal = new Map<string, FoundRegex[]>();
  const dynamic: FoundRegex[] = [];
  const found = [...extra, ...dirs.flatMap((dir) => listSources(root, dir).flatMap((file) => extractRegexes(root, file)))];
  for (const r of found) {
    if (r.source === null) { dynamic.push(r); continue; }
    const key = `/${r.source}/${r.flags}`;
    const list = literal.get(key);
    if (list) list.push(r); else literal.set(key, [r]);
  }
  return { literal, dynamic };
}

export async function checkAll(literal: Map<string, FoundRegex[]>, concurrency = 4): Promise<Checked[]> {
  const entries = [...literal.values()];
  const out: Checked[] = new Array<Checked>(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= entries.length) return;
      const sites = entries[i]!;
      const { source, flags } = sites[0]! as { source: string; flags: string };
      const diagnostics = await check(source, flags, CHECK_PARAMS);
      out[i] = { source, flags, sites, diagnostics };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}
