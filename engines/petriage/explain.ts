// Explanations in an analyst's terms: the model's per-feature contributions summed into named families (imports of a capability, section
// entropy, strings, header anomalies, byte distribution, ...), each with the file's concrete evidence instead of hashed feature names.
import { plural } from '../core/wording.js';
import type { AuthenticodeResult } from './authenticode/types.js';
import { apiKey, type Capability, type CapabilityRules } from './capabilities.js';
import { FEATURE_NAMES, GROUP_OFFSET, groupOf } from './features.js';
import type { PeDissection } from './pe/types.js';

export interface ExplanationFamily {
  /** Stable id: `imports:<capability tag>`, `imports:other`, `libraries`, `section-entropy`, `section-layout`, `strings`, `header`, `byte-distribution`, `exports`. */
  readonly id: string;
  /** In words, for example `Imports used for process injection`. */
  readonly name: string;
  /** Sum of the family's contributions to the margin (log-odds); positive pushes towards malicious. */
  readonly contribution: number;
  /** Features of the family that moved the score. */
  readonly features: number;
  /** What in this file the family stands for: imports as `dll!Function`, sections with their entropy, string counts (at most MAX_EVIDENCE). */
  readonly evidence: readonly string[];
}

export interface Explanation {
  /** Families by the size of their contribution, largest first; families whose contributions are all zero are left out. */
  readonly families: readonly ExplanationFamily[];
}

/** An imported function with the capability tags whose rules name it. */
export interface TaggedImport {
  readonly dll: string;
  readonly name: string;
  readonly tags: readonly string[];
}

export const MAX_EVIDENCE = 8;
const MAX_TAGGED_IMPORTS = 2000;

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** API key (see apiKey) to the capability rules that list it: tag and name. */
function apiIndex(rules: CapabilityRules): Map<string, { tag: string; name: string }[]> {
  const out = new Map<string, { tag: string; name: string }[]>();
  for (const r of rules.rules)
    for (const g of r.imports)
      for (const k of g.names) {
        const list = out.get(k) ?? [];
        if (!list.some((x) => x.tag === r.tag)) list.push({ tag: r.tag, name: r.name });
        out.set(k, list);
      }
  return out;
}

function lookup(index: Map<string, { tag: string; name: string }[]>, name: string): { tag: string; name: string }[] {
  const k = apiKey(name);
  const hit = index.get(k);
  if (hit) return hit;
  if (k.length > 1 && (k.endsWith('a') || k.endsWith('w'))) return index.get(k.slice(0, -1)) ?? [];
  return [];
}

/** Every import (and delay import) of the file with the capability tags whose rules name it; untagged ones are left out. */
export function taggedImports(d: PeDissection, rules: CapabilityRules): TaggedImport[] {
  const index = apiIndex(rules);
  const out: TaggedImport[] = [];
  for (const dll of [...d.imports, ...d.delay_imports])
    for (const s of dll.symbols) {
      const name = s.name ?? s.ordinal_name;
      if (name === null || out.length >= MAX_TAGGED_IMPORTS) continue;
      const tags = lookup(index, name).map((t) => t.tag);
      if (tags.length > 0) out.push({ dll: dll.dll, name, tags });
    }
  return out;
}

interface Acc {
  name: string;
  contribution: number;
  slots: Set<number>;
  evidence: string[];
}

/**
 * Sums `contributions` (one per feature) into families. A hashed import slot's contribution is shared equally by the
 * file's functions that fell into it; each function's share goes to the family of its capability (the first fired
 * capability that lists it, else the first rule that does), or to "other imported functions".
 */
export function explainFamilies(input: {
  readonly contributions: ArrayLike<number>;
  readonly values: ArrayLike<number>;
  readonly tokens: ReadonlyMap<number, readonly string[]>;
  readonly dissection: PeDissection;
  readonly capabilities: readonly Capability[];
  readonly rules: CapabilityRules;
  readonly authenticode: AuthenticodeResult | null;
}): Explanation {
  const { contributions, values, tokens, dissection: d } = input;
  const index = apiIndex(input.rules);
  const fired = new Map(input.capabilities.map((c) => [c.tag, c.name]));
  const fams = new Map<string, Acc>();
  let slot = 0;
  const add = (id: string, name: string, c: number, evidence: readonly string[] = []): void => {
    let f = fams.get(id);
    if (!f) {
      f = { name, contribution: 0, slots: new Set(), evidence: [] };
      fams.set(id, f);
    }
    f.contribution += c;
    f.slots.add(slot);
    for (const e of evidence) if (f.evidence.length < 64 && !f.evidence.includes(e)) f.evidence.push(e);
  };
  const dllOf = new Map<string, string>();
  for (const dll of [...d.imports, ...d.delay_imports]) dllOf.set(dll.dll.toLowerCase(), dll.dll);
  const functionStart = GROUP_OFFSET.imports + 256;

  for (let i = 0; i < contributions.length; i++) {
    const c = contributions[i] as number;
    if (c === 0) continue;
    slot = i;
    const group = groupOf(i);
    const name = FEATURE_NAMES[i] as string;
    switch (group) {
      case 'imports': {
        const list = tokens.get(i) ?? [];
        if (i < functionStart) {
          add('libraries', 'Imported libraries', c, list.map((l) => dllOf.get(l) ?? l));
          break;
        }
        if (list.length === 0) {
          add('imports:other', 'Other imported functions', c);
          break;
        }
        const share = c / list.length;
        for (const t of list) {
          const at = t.indexOf(':');
          const lib = t.slice(0, at);
          const fn = t.slice(at + 1);
          const caps = lookup(index, fn);
          const pick = caps.find((x) => fired.has(x.tag)) ?? caps[0];
          const shown = `${dllOf.get(lib) ?? lib}!${fn}`;
          if (pick) add(`imports:${pick.tag}`, `Imports used for ${fired.get(pick.tag) ?? pick.name}`, share, [shown]);
          else add('imports:other', 'Other imported functions', share, [shown]);
        }
        break;
      }
      case 'section': {
        const list = (tokens.get(i) ?? []).map((t) => t.replace(/^(section|entry|entryCharacteristic):/, ''));
        if (name.startsWith('section.entropy#')) {
          const ev = list.map((n) => {
            const s = d.sections.find((x) => x.name === n);
            return s && s.entropy !== null ? `${n || '(no name)'} ${s.entropy.toFixed(2)} bits/byte` : n;
          });
          add('section-entropy', 'Section entropy', c, ev);
        } else {
          const ev: string[] = [];
          if (name === 'section.readExecute' || name === 'section.write') {
            for (const s of d.sections) if (s.flags.includes('MEM_WRITE') && s.flags.includes('MEM_EXECUTE')) ev.push(`${s.name || '(no name)'} is writable and executable`);
          } else if (name === 'section.count') ev.push(plural(d.sections.length, 'section'));
          else if (name === 'section.zeroSize') ev.push(`${d.sections.filter((s) => s.raw_size === 0).length} section(s) with no data in the file`);
          else if (name.startsWith('section.entry')) ev.push(`entry point in ${d.entry_point.section ?? 'no section'}`);
          else ev.push(...list.map((n) => `section ${n || '(no name)'}`));
          add('section-layout', 'Section layout', c, ev);
        }
        break;
      }
      case 'strings': {
        const v = values[i] as number;
        const ev: string[] = [];
        if (name === 'strings.paths') ev.push(`${v} path(s) with c:\\`);
        else if (name === 'strings.urls') ev.push(`${v} URL(s)`);
        else if (name === 'strings.registry') ev.push(`${v} registry key(s) (HKEY_)`);
        else if (name === 'strings.mz') ev.push(`${v} MZ marker(s) (embedded executables?)`);
        else if (name === 'strings.count') ev.push(plural(v, 'printable string'));
        else if (name === 'strings.entropy') ev.push(`string character entropy ${v.toFixed(2)}`);
        else if (name === 'strings.averageLength') ev.push(`average string length ${v.toFixed(1)}`);
        else ev.push('the mix of characters in the strings');
        add('strings', 'Strings', c, ev);
        break;
      }
      case 'byteHistogram':
      case 'byteEntropyHistogram': {
        const ev = [`whole-file entropy ${d.entropy.toFixed(2)} bits/byte`];
        if (group === 'byteEntropyHistogram') {
          let high = 0;
          for (let j = 14 * 16; j < 256; j++) high += values[GROUP_OFFSET.byteEntropyHistogram + j] as number;
          ev.push(`${Math.round(high * 100)} % of the file in windows of entropy ≥ 7 bits/byte`);
        }
        add('byte-distribution', 'Byte distribution and entropy', c, ev);
        break;
      }
      case 'exports':
        add('exports', 'Exported names', c, tokens.get(i) ?? []);
        break;
      case 'general':
      case 'header':
      case 'dataDirectories': {
        add('header', 'Header and structure', c, headerEvidence(name, d, input.authenticode, tokens.get(i) ?? []));
        break;
      }
    }
  }
  const families = [...fams.entries()]
    .map(([id, f]): ExplanationFamily => ({
      id,
      name: f.name,
      contribution: round(f.contribution),
      features: f.slots.size,
      // A feature the file lacks still moves the score (the model compares each value with its training data): say so.
      evidence: f.evidence.length > 0 ? f.evidence.slice(0, MAX_EVIDENCE) : ['none in this file (the model weighs their absence)'],
    }))
    .filter((f) => f.contribution !== 0)
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || a.id.localeCompare(b.id));
  return { families };
}

function headerEvidence(name: string, d: PeDissection, ac: AuthenticodeResult | null, tokens: readonly string[]): string[] {
  if (name === 'general.hasSignature') {
    const s = ac?.signatures[0];
    if (!d.certificate) return ['not signed'];
    return [s ? `signature ${s.status.replace('_', ' ')}${s.signer ? ` (${s.signer.name})` : ''}` : 'certificate table present'];
  }
  if (name === 'general.hasTls') return [d.tls ? `TLS directory (${d.tls.callbacks.length} callback(s))` : 'no TLS directory'];
  if (name === 'general.hasDebug') return [d.debug.length > 0 ? 'debug directory present' : 'no debug directory'];
  if (name === 'general.hasRelocations') return ['relocations'];
  if (name === 'general.hasResources') return [d.resources.entries.length > 0 ? `${d.resources.entries.length} resource(s)` : 'no resources'];
  if (name === 'general.imports') return [plural(d.imports.reduce((n, x) => n + x.symbols.length, 0), 'imported function')];
  if (name === 'general.exports') return [plural(d.exports?.symbols.length ?? 0, 'export')];
  if (name === 'general.size') return [`file size ${d.size} bytes`];
  if (name === 'general.virtualSize') return [`image size ${d.optional_header.size_of_image} bytes`];
  if (name === 'header.timestamp') return [`link time ${d.file_header.timestamp === 0 ? '0 (cleared)' : new Date(d.file_header.timestamp * 1000).toISOString().slice(0, 10)}`];
  if (name.startsWith('dataDirectories.')) return [`${name.split('.')[1] ?? ''} directory`];
  if (tokens.length > 0) return tokens.map((t) => t.replace(':', ' '));
  return [name.replace(/^header\./, '')];
}
