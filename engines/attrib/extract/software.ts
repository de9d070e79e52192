// ATT&CK software (malware and tools) named in report text: names and aliases from the knowledge base, whole words, written as ATT&CK does or capitalised another way (`Qakbot` for `QakBot`), ordinary English words and very short names left out.
import type { AttackKb } from '../kb/kb.js';

export interface SoftwareMention {
  /** ATT&CK software id (`S0154`). */
  readonly id: string;
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Software names that are also ordinary words or given names: written at the start of a sentence they would be read
 * as the software, so they are never matched on their own (a longer alias still matches).
 */
export const GENERIC_SOFTWARE_NAMES: ReadonlySet<string> = new Set(
  [
    'agenda', 'anchor', 'apostle', 'arp', 'at', 'attrib', 'avenger', 'cannon', 'carbon', 'chaos', 'cmd', 'crimson', 'denis', 'disco', 'embargo', 'empire', 'epic',
    'expand', 'explosive', 'flame', 'ftp', 'james', 'kevin', 'mango', 'meteor', 'milan', 'mosquito', 'net', 'ninja', 'octopus', 'page', 'pandora', 'ping', 'play',
    'pony', 'proton', 'reg', 'responder', 'route', 'rover', 'royal', 'ruler', 'samurai', 'scorpion', 'shark', 'snake', 'soldier', 'solar', 'spark', 'trinity', 'wiper',
    'aurora', 'donut', 'mythic', 'helminth',
  ],
);

interface SoftwareIndex {
  readonly re: RegExp | null;
  readonly byName: ReadonlyMap<string, string>;
}

const indexes = new WeakMap<AttackKb, SoftwareIndex>();

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One alternation of every usable name, longest first; a name shared by two pieces of software is left out. */
function softwareIndex(kb: AttackKb): SoftwareIndex {
  const cached = indexes.get(kb);
  if (cached) return cached;
  const owners = new Map<string, Set<string>>();
  for (const s of kb.data.software) {
    if (s.deprecated === true) continue;
    for (const n of new Set([s.name, ...s.aliases])) {
      const name = n.trim();
      if (name.length < 3 || GENERIC_SOFTWARE_NAMES.has(name.toLowerCase()) || !/\p{L}/u.test(name)) continue;
      const key = name.toLowerCase();
      const set = owners.get(key) ?? new Set<string>();
      set.add(s.id);
      owners.set(key, set);
    }
  }
  // Keyed by lower case; a name two pieces of software share (in any case) is left out.
  const byName = new Map<string, string>();
  for (const [name, set] of owners) if (set.size === 1) byName.set(name, [...set][0]!);
  const names = [...byName.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const re = names.length === 0 ? null : new RegExp(`(?<![\\p{L}\\p{N}_.-])(?:${names.map(escape).join('|')})(?![\\p{L}\\p{N}_]|-\\p{L})`, 'giu');
  const index = { re, byName };
  indexes.set(kb, index);
  return index;
}

/** Software named in `text`, with spans, in text order. */
export function findSoftware(text: string, kb: AttackKb): SoftwareMention[] {
  const { re, byName } = softwareIndex(kb);
  if (re === null) return [];
  const out: SoftwareMention[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const id = byName.get(m[0].toLowerCase())!;
    // Written another way than ATT&CK does, a name counts only when it starts with a capital or a digit (`Qakbot`, not `prestige`).
    const sw = kb.software.get(id)!;
    const exact = [sw.name, ...sw.aliases].includes(m[0]);
    if (!exact && !/^[\p{Lu}\p{N}]/u.test(m[0])) continue;
    out.push({ id, name: kb.software.get(id)!.name, start: m.index, end: m.index + m[0].length });
  }
  return out;
}
