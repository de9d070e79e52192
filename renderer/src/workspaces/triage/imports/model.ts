// Pure helpers of the Imports tab: functions grouped by DLL with the capability tags the service gave them.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { counted } from '../../../components/wording';
import { matches } from '../model';

export interface ImportedFunction {
  readonly name: string;
  readonly ordinal: number | null;
  readonly tags: readonly string[];
}

export interface DllGroup {
  readonly dll: string;
  readonly delay: boolean;
  readonly functions: readonly ImportedFunction[];
  /** Every tag of its functions, sorted. */
  readonly tags: readonly string[];
}

const key = (dll: string, name: string): string => `${dll.toLowerCase()}!${name}`;

export function importsByDll(result: TriageResult): DllGroup[] {
  const tags = new Map<string, readonly string[]>();
  for (const t of result.importTags) tags.set(key(t.dll, t.name), t.tags);
  const groups: DllGroup[] = [];
  const add = (list: TriageResult['pe']['imports'], delay: boolean): void => {
    for (const d of list) {
      const functions = d.symbols.map((s): ImportedFunction => {
        const name = s.name ?? s.ordinal_name ?? `ordinal ${s.ordinal ?? '?'}`;
        return { name, ordinal: s.ordinal, tags: tags.get(key(d.dll, s.name ?? s.ordinal_name ?? '')) ?? [] };
      });
      groups.push({ dll: d.dll, delay, functions, tags: [...new Set(functions.flatMap((f) => f.tags))].sort() });
    }
  };
  add(result.pe.imports, false);
  add(result.pe.delay_imports, true);
  return groups;
}

/** The groups narrowed to the functions matching the filter (a DLL name match keeps all its functions) and, when given, one tag. */
export function filterGroups(groups: readonly DllGroup[], filter: string, tag: string | null): DllGroup[] {
  const out: DllGroup[] = [];
  for (const g of groups) {
    const dllMatches = filter.trim() !== '' && matches(filter, g.dll);
    const functions = g.functions.filter((f) => (tag === null || f.tags.includes(tag)) && (dllMatches || matches(filter, g.dll, f.name, ...f.tags)));
    if (functions.length > 0) out.push({ ...g, functions });
  }
  return out;
}

/** The Imports head: "1 function from 1 DLL", "3 of 1,204 functions from 12 DLLs" (the words agree with the counts). */
export function importsCountText(shown: number, total: number, dlls: number): string {
  const functions = shown === total ? counted(total, 'function') : `${shown.toLocaleString('en')} of ${counted(total, 'function')}`;
  return `${functions} from ${counted(dlls, 'DLL')}`;
}
