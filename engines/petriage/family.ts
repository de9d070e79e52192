// Known-family attribution: each family's profile of distinctive imports and strings, and the nearest family for a file with the evidence shared.
import { apiKey, importRefsOf } from './capabilities.js';
import type { PeDissection } from './pe/types.js';
import type { FamilyAttribution, KnownFamily, ProfileToken } from '../core/contracts/petriage.js';

export type { FamilyAttribution, KnownFamily, ProfileToken } from '../core/contracts/petriage.js';

/** Below this similarity no family is named. */
export const FAMILY_MIN_SIMILARITY = 0.25;
const MAX_PROFILE = 64;
const MAX_EVIDENCE = 12;
const MAX_STRING = 256;

/** A file's tokens, keyed `import:<name>` or `string:<value>`. */
export function fileTokens(d: PeDissection): Set<string> {
  const out = new Set<string>();
  // Import and DLL names are also strings of the file (the hint/name table); they count once, as imports.
  const named = new Set<string>();
  for (const ref of importRefsOf(d)) {
    out.add(`import:${apiKey(ref.name)}`);
    named.add(ref.name);
    if (ref.dll !== null) named.add(ref.dll);
  }
  const headerEnd = d.optional_header.size_of_headers;
  for (const s of [...d.strings.ascii, ...d.strings.utf16le]) {
    // Strings in the headers are section names and the DOS stub, not the program's.
    if (s.offset < headerEnd || named.has(s.value)) continue;
    if (s.value.length >= 5 && s.value.length <= MAX_STRING) out.add(`string:${s.value}`);
  }
  return out;
}

function tokenOf(key: string, share: number): ProfileToken {
  const colon = key.indexOf(':');
  return { kind: key.slice(0, colon) as 'import' | 'string', value: key.slice(colon + 1), share };
}

/**
 * Profiles from labelled token sets: a token enters a family's profile when at least 40 % of the family has it,
 * at most 5 % of benign files do, and no other family has it more than half as often.
 */
export function buildProfiles(samples: readonly { readonly family: string; readonly label: 0 | 1; readonly tokens: ReadonlySet<string> }[], descriptions: ReadonlyMap<string, string>): KnownFamily[] {
  const groups = new Map<string, ReadonlySet<string>[]>();
  for (const s of samples) {
    const key = s.label === 0 ? '' : s.family;
    const list = groups.get(key) ?? [];
    list.push(s.tokens);
    groups.set(key, list);
  }
  const shares = new Map<string, Map<string, number>>();
  for (const [name, sets] of groups) {
    const counts = new Map<string, number>();
    for (const set of sets) for (const t of set) counts.set(t, (counts.get(t) ?? 0) + 1);
    shares.set(name, new Map([...counts].map(([t, c]) => [t, c / sets.length])));
  }
  const benign = shares.get('') ?? new Map<string, number>();
  const families: KnownFamily[] = [];
  for (const [name, own] of shares) {
    if (name === '') continue;
    const profile: ProfileToken[] = [];
    for (const [t, share] of own) {
      if (share < 0.4 || (benign.get(t) ?? 0) > 0.05) continue;
      let other = 0;
      for (const [n2, s2] of shares) if (n2 !== name && n2 !== '') other = Math.max(other, s2.get(t) ?? 0);
      if (other > share / 2) continue;
      profile.push(tokenOf(t, Math.round(share * 1000) / 1000));
    }
    profile.sort((a, b) => b.share - a.share || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    families.push({ name, description: descriptions.get(name) ?? '', samples: groups.get(name)?.length ?? 0, profile: profile.slice(0, MAX_PROFILE) });
  }
  return families.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Similarity of a file to each family, best first. */
export function familyScores(families: readonly KnownFamily[], tokens: ReadonlySet<string>): FamilyAttribution[] {
  const out: FamilyAttribution[] = [];
  for (const f of families) {
    let total = 0;
    let found = 0;
    const evidence: ProfileToken[] = [];
    for (const t of f.profile) {
      total += t.share;
      if (tokens.has(`${t.kind}:${t.value}`)) {
        found += t.share;
        evidence.push(t);
      }
    }
    out.push({ name: f.name, similarity: total > 0 ? Math.round((found / total) * 1e6) / 1e6 : 0, evidence: evidence.slice(0, MAX_EVIDENCE) });
  }
  return out.sort((a, b) => b.similarity - a.similarity || (a.name < b.name ? -1 : 1));
}

/** The nearest known family when it shares enough of its profile with the file, else null. */
export function nearestFamily(families: readonly KnownFamily[], tokens: ReadonlySet<string>): FamilyAttribution | null {
  const best = familyScores(families, tokens)[0];
  return best !== undefined && best.similarity >= FAMILY_MIN_SIMILARITY ? best : null;
}
