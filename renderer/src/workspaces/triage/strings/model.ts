// Pure helpers of the Strings tab: what kind of string it is, and the filters.
import type { TriageString } from '../../../../../engines/core/contracts/petriage';
import { matches } from '../model';

export type StringKind = 'url' | 'path' | 'registry' | 'ip' | 'other';

export const STRING_KINDS: readonly { readonly kind: StringKind | 'all'; readonly label: string }[] = [
  { kind: 'all', label: 'All' },
  { kind: 'url', label: 'URLs' },
  { kind: 'path', label: 'Paths' },
  { kind: 'registry', label: 'Registry' },
  { kind: 'ip', label: 'IP addresses' },
];

/** A rough class of a string, for the filter chips (not a capability: that is the service's job). */
export function stringKind(value: string): StringKind {
  if (/\b(?:https?|ftp):\/\/[^\s]+/i.test(value)) return 'url';
  if (/\bHKEY_[A-Z_]+|\b(?:HKLM|HKCU)\\|\\CurrentVersion\\/i.test(value)) return 'registry';
  if (/\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/.test(value)) return 'ip';
  if (/\b[A-Za-z]:\\|\\\\[\w.$-]+\\|%[A-Za-z]+%\\/.test(value)) return 'path';
  return 'other';
}

export interface StringFilter {
  /** Words that must all appear (case-insensitive), the workspace filter. */
  readonly text: string;
  readonly encoding: 'all' | 'ascii' | 'utf16le';
  readonly minLength: number;
  readonly kind: StringKind | 'all';
}

export const DEFAULT_STRING_FILTER: StringFilter = { text: '', encoding: 'all', minLength: 4, kind: 'all' };

export function filterStrings(items: readonly TriageString[], f: StringFilter): TriageString[] {
  return items.filter(
    (s) =>
      (f.encoding === 'all' || s.encoding === f.encoding) &&
      s.value.length >= f.minLength &&
      (f.kind === 'all' || stringKind(s.value) === f.kind) &&
      matches(f.text, s.value),
  );
}
