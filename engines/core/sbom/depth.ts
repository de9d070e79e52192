// How deep a JSON value nests, counted without recursion: the schema checks refuse a document nested past a depth
// (the CycloneDX validator recurses per level, and JSON.stringify does too) instead of running out of stack.

/** JSON levels a document may nest: 256 levels of nested components (an object and its `components` array each). */
export const MAX_SBOM_DEPTH = 512;

/** Whether `value` nests deeper than `max` levels of arrays and objects (a cycle nests without end). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  // a value shared by several parents is walked again only when reached deeper than before
  const reached = new Map<object, number>();
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    if ((reached.get(v) ?? -1) >= depth) continue;
    reached.set(v, depth);
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** The one problem a too-deep document gets, as the checks word theirs (pointer, keyword, message). */
export const TOO_DEEP = `maxDepth the document nests deeper than ${MAX_SBOM_DEPTH} levels`;
