// Sigma field values compiled: a value runs through its modifiers (modifiers.ts, in the written order) and what comes
// out becomes a compiled matcher with its closure and its pre-filter needle.
import { applyModifiers, checkModifierNames, MODIFIER_NAMES, type ItemFlags, type ModValue } from './modifiers.js';
import { cidrMatcher, compiledValue, compilePattern, compileRegex, longestLiteral, UnsupportedRule, type CompiledValue, type Placeholders } from './value.js';

/** Every modifier name the engine knows, aliases included (the modifier table's names). */
export const KNOWN_MODIFIERS: ReadonlySet<string> = MODIFIER_NAMES;

/** The compiled alternatives of a value the modifiers are done with. */
function compiledOf(v: ModValue): CompiledValue[] {
  switch (v.t) {
    case 'string':
      if (v.enc !== null) throw new UnsupportedRule('a utf16 modifier without base64 cannot be matched against text');
      return v.variants.map((tokens) => compiledValue({ k: 'str', p: compilePattern(tokens, v.cased) }, longestLiteral(tokens)));
    case 'number':
      return [compiledValue({ k: 'str', p: compilePattern([v.written], false) }, longestLiteral([v.written]))];
    case 'bool': {
      const text = String(v.b);
      return [compiledValue({ k: 'str', p: compilePattern([text], false) }, text)];
    }
    case 'null':
      return [compiledValue({ k: 'null' }, null)];
    case 're':
      return [compiledValue({ k: 're', re: compileRegex(v.source, v.flags) }, null)];
    case 'cidr':
      return [compiledValue(cidrMatcher(v.spec), null)];
    case 'compare':
      return [compiledValue({ k: 'num', cmp: v.cmp === 'eq' ? undefined : v.cmp, want: v.want, unit: v.unit ?? undefined }, null)];
    case 'fieldref':
      return [compiledValue({ k: 'fieldref', field: v.field, start: v.start, end: v.end, cased: v.cased }, null)];
    case 'exists':
      return [compiledValue({ k: 'exists', want: v.want }, null)];
  }
}

/**
 * Compiles one value of a field item under its modifiers (the field name itself is handled by the caller), applied
 * left to right. Returns the alternatives the value stands for (expand, windash and base64offset give several).
 * Throws UnsupportedRule for what cannot run. `flags` receives the item-wide modifiers (all, neq) when given.
 */
export function compileValue(raw: unknown, mods: readonly string[], placeholders: Placeholders | undefined, flags: ItemFlags = { all: false, neg: false }): CompiledValue[] {
  return compiledOf(applyModifiers(raw, mods, flags, { placeholders }));
}

/** A field item's values compiled, with its item-wide flags: `all` (each value must hold) and `neg` (neq: none may). */
export function compileFieldValues(values: readonly unknown[], mods: readonly string[], placeholders: Placeholders | undefined): { values: CompiledValue[][]; flags: ItemFlags } {
  checkModifierNames(mods);
  const flags: ItemFlags = { all: false, neg: false };
  return { values: values.map((v) => compileValue(v, mods, placeholders, flags)), flags };
}
