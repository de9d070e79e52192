// The search box's pure parts: the flat option list over the groups, the query-kind wording, highlighting.
import type { QueryKind, SearchGroup, SearchHit } from '../../../engines/core/contracts/search';

export const MIN_QUERY = 2;
export const MAX_QUERY = 200;

export const KIND_WORDS: Readonly<Record<QueryKind, string>> = {
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  md5: 'an MD5 hash',
  sha1: 'a SHA-1 hash',
  sha256: 'a SHA-256 hash',
  domain: 'a domain',
  technique: 'an ATT&CK technique id',
  cve: 'a CVE id',
  package: 'a package',
  text: 'text',
};

export interface SearchOption {
  readonly key: string;
  readonly group: number;
  readonly hit: SearchHit;
}

/** Every hit in display order, each with a stable key (service, kind, id) for the listbox. */
export function optionsOf(groups: readonly SearchGroup[]): SearchOption[] {
  return groups.flatMap((g, gi) => g.hits.map((hit) => ({ key: `${hit.service}:${hit.kind}:${hit.id}`, group: gi, hit })));
}

/** The next option index after a key press, wrapping at both ends; -1 stays -1 with no options. */
export function moveActive(current: number, count: number, key: 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'): number {
  if (count === 0) return -1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key === 'ArrowDown') return current < 0 ? 0 : (current + 1) % count;
  return current <= 0 ? count - 1 : current - 1;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Splits `text` around the first case-insensitive occurrence of `needle` (for a <mark>); no match: one piece. With
 * `whole` (an identifier: address, hash, technique id, domain ...), only an occurrence that no letter or digit
 * continues on either side, as the search matches them: 192.168.56.1 is not marked inside 192.168.56.103.
 */
export function splitMatch(text: string, needle: string, whole = false): readonly [string, string, string] | readonly [string] {
  const n = needle.trim();
  if (n.length === 0) return [text];
  const lower = text.toLowerCase();
  const low = n.toLowerCase();
  for (let i = lower.indexOf(low); i >= 0; i = lower.indexOf(low, i + 1)) {
    const end = i + n.length;
    if (whole && ((i > 0 && WORD_CHAR.test(text[i - 1]!)) || (end < text.length && WORD_CHAR.test(text[end]!)))) continue;
    return [text.slice(0, i), text.slice(i, end), text.slice(end)];
  }
  return [text];
}

/** A short, readable kind label: `project-scan` -> `project scan`. */
export function kindLabel(kind: string): string {
  return kind.replace(/-/g, ' ');
}
