// Maven version ordering, as Maven's ComparableVersion (3.9): items split at `.`, `-` and digit/letter changes, qualifiers alpha < beta < milestone < rc < snapshot < release < sp.
import { ownEntry } from '../../own.js';

type Item = { readonly kind: 'int'; readonly value: bigint } | { readonly kind: 'str'; readonly value: string } | { readonly kind: 'list'; readonly items: Item[] };

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Readonly<Record<string, string>> = { ga: '', final: '', release: '', cr: 'rc' };
const RELEASE_INDEX = '5';

function strItem(value: string, followedByDigit: boolean): Item {
  let v = value;
  if (followedByDigit && v.length === 1) v = v === 'a' ? 'alpha' : v === 'b' ? 'beta' : v === 'm' ? 'milestone' : v;
  return { kind: 'str', value: ownEntry(ALIASES, v) ?? v };
}

/** Known qualifiers by rank; unknown ones after them all, in lexical order (Maven compares these as strings). */
function comparable(q: string): string {
  const i = QUALIFIERS.indexOf(q);
  return i === -1 ? `${QUALIFIERS.length}-${q}` : String(i);
}

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function isNull(it: Item): boolean {
  return it.kind === 'int' ? it.value === 0n : it.kind === 'str' ? it.value === '' : it.items.length === 0;
}

function normalize(items: Item[]): void {
  for (let i = items.length - 1; i >= 0; i--) {
    const last = items[i] as Item;
    if (isNull(last)) items.splice(i, 1);
    else if (last.kind !== 'list') break;
  }
}

function parseItem(isDigit: boolean, buf: string): Item {
  return isDigit ? { kind: 'int', value: BigInt(buf) } : strItem(buf, false);
}

/** Parses a version into Maven's item tree. */
export function parseMaven(version: string): Item {
  const v = version.trim().toLowerCase();
  const root: Item = { kind: 'list', items: [] };
  let list = root.items;
  const stack: Item[][] = [list];
  let isDigit = false;
  let start = 0;
  const push = (): void => {
    const next: Item = { kind: 'list', items: [] };
    list.push(next);
    list = next.items;
    stack.push(list);
  };
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (c === '.') {
      list.push(i === start ? { kind: 'int', value: 0n } : parseItem(isDigit, v.slice(start, i)));
      start = i + 1;
    } else if (c === '-') {
      list.push(i === start ? { kind: 'int', value: 0n } : parseItem(isDigit, v.slice(start, i)));
      start = i + 1;
      push();
    } else if (c >= '0' && c <= '9') {
      if (!isDigit && i > start) {
        list.push(strItem(v.slice(start, i), true));
        start = i;
        push();
      }
      isDigit = true;
    } else {
      // A qualifier after a dot reads as one after a dash (Maven 3.9, MNG-7644): 2.0.a < 2-1, 1.0.RC1 = 1.0-RC1.
      if (i === start && i > 0 && v[i - 1] === '.') push();
      if (isDigit && i > start) {
        list.push(parseItem(true, v.slice(start, i)));
        start = i;
        push();
      }
      isDigit = false;
    }
  }
  if (v.length > start) list.push(parseItem(isDigit, v.slice(start)));
  while (stack.length > 0) normalize(stack.pop() as Item[]);
  return root;
}

function compareItem(a: Item, b: Item | null): number {
  if (a.kind === 'int') {
    if (b === null) return a.value === 0n ? 0 : 1;
    if (b.kind === 'int') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return 1;
  }
  if (a.kind === 'str') {
    if (b === null) return cmpStr(comparable(a.value), RELEASE_INDEX);
    if (b.kind === 'str') return cmpStr(comparable(a.value), comparable(b.value));
    return -1;
  }
  if (b === null) return a.items.length === 0 ? 0 : compareItem(a.items[0] as Item, null);
  if (b.kind === 'int') return -1;
  if (b.kind === 'str') return 1;
  const n = Math.max(a.items.length, b.items.length);
  for (let i = 0; i < n; i++) {
    const l = a.items[i] ?? null;
    const r = b.items[i] ?? null;
    const c = l === null ? (r === null ? 0 : -compareItem(r, l)) : compareItem(l, r);
    if (c !== 0) return c;
  }
  return 0;
}

/** Orders two Maven versions (-1, 0, 1); null for an empty or space-containing string (Maven orders anything else). */
export function compareMaven(a: string, b: string): number | null {
  if (a.trim() === '' || b.trim() === '' || /\s/.test(a.trim()) || /\s/.test(b.trim())) return null;
  return Math.sign(compareItem(parseMaven(a), parseMaven(b)));
}
