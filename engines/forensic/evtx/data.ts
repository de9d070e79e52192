// What a reader of event data takes from the parts rendering: the data map and the user SID, from the JSON or its plan.
import { P, type PlanNode } from './plan.js';
import type { JsonObject, JsonValue } from './render.js';

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** EventData (or the first object under UserData) of the parts rendering (render.ts eventParts), or a new empty map. */
export function dataOfParts(parts: JsonObject): JsonObject {
  const root = parts['Event'];
  if (!isObject(root)) return {};
  const ed = root['EventData'];
  if (isObject(ed)) return ed;
  const ud = root['UserData'];
  if (isObject(ud)) {
    for (const inner of Object.values(ud)) if (isObject(inner)) return inner;
  }
  return {};
}

/** System/Security@UserID of the parts rendering when it is text, else null. */
export function userSidOfParts(parts: JsonObject): string | null {
  const root = parts['Event'];
  const system = isObject(root) ? root['System'] : undefined;
  const security = isObject(system) ? system['Security'] : undefined;
  const attrs = isObject(security) ? security['#attributes'] : undefined;
  const id = isObject(attrs) ? attrs['UserID'] : undefined;
  return typeof id === 'string' ? id : null;
}

/**
 * The plan of a key's value in an object's plan: null when the object has no such key. A plan node renders to an
 * object exactly when it is P.Obj (compileJson makes constants of primitives only), so the lookups above can be made
 * once on the plan. Undefined (no plan) when the object has a `__proto__` key: filling it sets a prototype, through
 * which a lookup could find what the keys do not show.
 */
function member(plan: PlanNode, key: string): PlanNode | null | undefined {
  if (plan.keys.includes('__proto__')) return undefined;
  const i = plan.keys.indexOf(key);
  return i < 0 ? null : plan.items[i]!;
}

/** A plan's part that dataOfParts finds: its plan (P.Obj), null for the empty map, undefined when it cannot be told. */
export function dataPlanOf(parts: PlanNode): PlanNode | null | undefined {
  if (parts.p !== P.Obj) return null;
  const root = member(parts, 'Event');
  if (root === undefined) return undefined;
  if (root === null || root.p !== P.Obj) return null;
  const ed = member(root, 'EventData');
  if (ed === undefined) return undefined;
  if (ed !== null && ed.p === P.Obj) return ed;
  const ud = member(root, 'UserData');
  if (ud === undefined) return undefined;
  if (ud !== null && ud.p === P.Obj) {
    if (ud.keys.includes('__proto__')) return undefined;
    for (let i = 0; i < ud.items.length; i++) if (ud.items[i]!.p === P.Obj) return ud.items[i]!;
  }
  return null;
}

/** The plan of the value userSidOfParts reads (a string when it is one), null when there is none, undefined when it cannot be told. */
export function userSidPlanOf(parts: PlanNode): PlanNode | null | undefined {
  let at: PlanNode = parts;
  for (const key of ['Event', 'System', 'Security', '#attributes', 'UserID']) {
    if (at.p !== P.Obj) return null;
    const next = member(at, key);
    if (next === undefined) return undefined;
    if (next === null) return null;
    at = next;
  }
  return at;
}
