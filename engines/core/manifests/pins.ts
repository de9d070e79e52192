// The spec's pin rules: lock files give one pin per (name, version); requirements and go.mod keep the last line per name; go.sum the highest version.
import { compareGoVersions } from './gover.js';
import type { PinRule } from './registry.js';
import type { ManifestEntry } from './types.js';

/** Applies a pin rule to entries in file order; the result stays in file order (by each kept entry's position). */
export function applyPinRule(entries: readonly ManifestEntry[], rule: PinRule): ManifestEntry[] {
  // the project's own workspace members are not dependencies, whatever version placeholder they carry
  const candidates = entries.filter((e) => e.source !== 'workspace');
  switch (rule) {
    case 'one-per-version': {
      const seen = new Set<string>();
      const out: ManifestEntry[] = [];
      for (const e of candidates) {
        const key = `${e.name}\u0000${e.version}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(e);
      }
      return out;
    }
    case 'last-line-wins': {
      const last = new Map<string, number>();
      candidates.forEach((e, i) => last.set(e.name, i));
      return candidates.filter((e, i) => last.get(e.name) === i);
    }
    case 'highest-version': {
      const best = new Map<string, number>();
      candidates.forEach((e, i) => {
        const at = best.get(e.name);
        const current = at === undefined ? undefined : candidates[at];
        if (current === undefined || compareGoVersions(e.version, current.version) > 0) best.set(e.name, i);
      });
      return candidates.filter((e, i) => best.get(e.name) === i);
    }
  }
}

/** The older one-version-per-name view: the first pin of each name in file order. */
export function firstPerName(pins: readonly ManifestEntry[]): ManifestEntry[] {
  const seen = new Set<string>();
  return pins.filter((e) => {
    if (seen.has(e.name)) return false;
    seen.add(e.name);
    return true;
  });
}
