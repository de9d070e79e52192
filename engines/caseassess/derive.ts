// Conservative facts read from ATT&CK group descriptions: suspected sponsor state, origin, victimology and first active year.
import { stripMarkdownLinks } from '../core/linear-text.js';
import { countryOf, findPlaces, findSectors, PLACES, WORLDWIDE } from './vocabulary.js';

/** A fact with the rule that found it and the words it was found in. */
export interface Derived<T> {
  readonly value: T;
  readonly rule: string;
  readonly basis: string;
}

/** Markdown links and citations removed, curly quotes straightened, `U.S.`-style abbreviations kept whole for sentence splitting. */
export function cleanDescription(text: string): string {
  return stripMarkdownLinks(text.replace(/\(Citation:[^)]*\)/g, ''))
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\bU\.S\.(?=\s|,|$)/g, 'US')
    .replace(/\bU\.K\.(?=\s|,|$)/g, 'UK')
    .replace(/\b(e\.g|i\.e|etc|Inc|Ltd|Co|St)\./g, '$1')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"(])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Sentences about the group itself: they name it (or an alias) or say "the group", "this group", "they". */
export function subjectSentences(description: string, names: readonly string[]): string[] {
  const namePatterns = names.filter((n) => n.length >= 2).map((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?![\\p{L}\\p{N}])`, 'iu'));
  return sentences(cleanDescription(description)).filter((s) => /\b(?:the|this) group\b|\bthey\b/i.test(s) || namePatterns.some((p) => p.test(s)));
}

interface AgencyTerm {
  readonly state: string;
  readonly names: readonly string[];
}

// Intelligence and military bodies whose naming as the actor's principal ATT&CK treats as state attribution.
const AGENCIES: readonly AgencyTerm[] = [
  { state: 'Russia', names: ['General Staff Main Intelligence Directorate', 'GRU', 'Federal Security Service', 'FSB', 'Foreign Intelligence Service', 'SVR'] },
  { state: 'China', names: ['Ministry of State Security', 'MSS', "People's Liberation Army", 'PLA', 'General Staff Department'] },
  { state: 'North Korea', names: ['Reconnaissance General Bureau', 'RGB'] },
  { state: 'Iran', names: ['Ministry of Intelligence and Security', 'MOIS', 'Islamic Revolutionary Guard Corps', 'IRGC'] },
  { state: 'Lebanon', names: ['General Directorate of General Security', 'GDGS'] },
];

const COUNTRY_WORDS: readonly { readonly country: string; readonly word: string }[] = [...PLACES.values()]
  .filter((p) => p.kind === 'country')
  .flatMap((p) => [p.name, ...p.aliases].map((word) => ({ country: p.name, word })))
  .sort((a, b) => b.word.length - a.word.length);

// "Latin American", "South Korean": a country word preceded by a compass or region word is not that country.
const COUNTRY_ALTERNATION = `(?<!(?:North|South|Latin|Central|East|West) )(?:${COUNTRY_WORDS.map((c) => escapeRegExp(c.word)).join('|')})`;

function countryFromWord(word: string): string | null {
  return countryOf(word.replace(/'s$/, ''));
}

const SPONSOR_RULES: readonly { readonly rule: string; readonly pattern: RegExp; readonly country: (m: RegExpExecArray) => string | null }[] = [
  {
    // "North Korean state-sponsored", "People's Republic of China (PRC) state-backed", "Iranian-sponsored"
    rule: 'sponsor:state-sponsored-adjective',
    pattern: new RegExp(`(?<![\\p{L}])(${COUNTRY_ALTERNATION})(?:\\s*\\([A-Z]{2,5}\\))?(?:\\s+|-)(?:state[- ])?(?:sponsored|backed)\\b`, 'u'),
    country: (m) => countryFromWord(m[1] ?? ''),
  },
  {
    // "a likely state-sponsored cyber espionage group operating out of China"
    rule: 'sponsor:state-sponsored-operating-from',
    pattern: new RegExp(`\\bstate[- ](?:sponsored|backed)\\b[^.]{0,80}?\\b(?:operating out of|operates out of|operate out of|operating from|based in)\\s+(${COUNTRY_ALTERNATION})(?![\\p{L}])`, 'u'),
    country: (m) => countryFromWord(m[1] ?? ''),
  },
  {
    // "attributed to Russia's General Staff Main Intelligence Directorate (GRU)", "a subordinate element within Iran's Ministry of Intelligence and Security"
    rule: 'sponsor:agency-attribution',
    pattern: new RegExp(
      `\\b(?:attributed(?:\\s+[\\p{L}\\p{N} ]{1,40}?)?\\s+to|linked(?:\\s+[\\p{L}\\p{N} ]{1,40}?)?\\s+to|element within|on behalf of|in association with|at the behest of|conducted by)\\b([^.;]{0,120}?)(?<![\\p{L}])(${AGENCIES.flatMap((a) => a.names).map(escapeRegExp).join('|')})(?![\\p{L}])`,
      'u',
    ),
    country: (m) => AGENCIES.find((a) => a.names.includes(m[2] ?? ''))?.state ?? null,
  },
  {
    // "works on behalf of the Iranian government", "a suspected nexus to the Iranian government", "at the behest of the government of Iran"
    rule: 'sponsor:government-nexus',
    pattern: new RegExp(
      `\\b(?:on behalf of|nexus to|associated with|at the behest of|sponsored by|working for|works for)\\s+the\\s+(?:(${COUNTRY_ALTERNATION})\\s+government|government of\\s+(${COUNTRY_ALTERNATION}))(?![\\p{L}])`,
      'u',
    ),
    country: (m) => countryFromWord(m[1] ?? m[2] ?? ''),
  },
  {
    // "a threat group that has been attributed to China." (a state by name, not "Iranian actors")
    rule: 'sponsor:attributed-to-state',
    pattern: new RegExp(`\\battributed to (${[...PLACES.values()].filter((p) => p.kind === 'country').map((p) => escapeRegExp(p.name)).join('|')})(?![\\p{L}'-])`, 'u'),
    country: (m) => countryFromWord(m[1] ?? ''),
  },
];

function basisOf(sentence: string, m: RegExpExecArray): string {
  return m[0].length <= 200 ? m[0].trim() : sentence.slice(0, 200);
}

/** The suspected sponsor state, only where the description states sponsorship or attribution to a state body. */
export function deriveSponsor(description: string, names: readonly string[]): Derived<string> | null {
  const subject = subjectSentences(description, names);
  for (const rule of SPONSOR_RULES) {
    for (const s of subject) {
      const m = rule.pattern.exec(s);
      if (m) {
        const country = rule.country(m);
        if (country !== null) return { value: country, rule: rule.rule, basis: basisOf(s, m) };
      }
    }
  }
  return null;
}

const ORIGIN_RULES: readonly { readonly rule: string; readonly pattern: RegExp }[] = [
  // "a China-based threat group", "a Türkiye-linked threat actor", "a China-nexus group" (not "-speaking": language is not origin)
  { rule: 'origin:country-based', pattern: new RegExp(`(?<![\\p{L}])(${COUNTRY_ALTERNATION})[- ](?:based|linked|nexus|aligned|related)\\b`, 'u') },
  // "operating out of China", "based in Brazil", "originating in Russia"
  { rule: 'origin:operating-from', pattern: new RegExp(`\\b(?:operat(?:e|es|ing) (?:out of|from)|based in|originating (?:in|from))\\s+(?:the\\s+)?(?:[\\p{L} ]{0,30}? of\\s+)?(${COUNTRY_ALTERNATION})(?![\\p{L}-])`, 'u') },
  // "a suspected Chinese cyber espionage group", "an Iranian threat group", "Chinese origins"
  {
    rule: 'origin:adjective-group',
    pattern: new RegExp(`(?<![\\p{L}])(${COUNTRY_ALTERNATION})\\s+(?:(?:cyber\\s*)?(?:espionage\\s+)?(?:threat\\s+)?(?:group|actor|activity group|APT|entity|origins?|cyber))\\b`, 'u'),
  },
];

/** Where the description says the group is based or comes from (not sponsorship). */
export function deriveOrigin(description: string, names: readonly string[]): Derived<string> | null {
  const subject = subjectSentences(description, names);
  for (const s of subject) {
    let best: { index: number; country: string; rule: string; match: RegExpExecArray } | null = null;
    for (const rule of ORIGIN_RULES) {
      const m = rule.pattern.exec(s);
      const country = m ? countryFromWord(m[1] ?? '') : null;
      if (m && country !== null && (best === null || m.index < best.index)) best = { index: m.index, country, rule: rule.rule, match: m };
    }
    // The earliest phrase in the first sentence that has one: descriptions name the group's own origin before others'.
    if (best) return { value: best.country, rule: best.rule, basis: basisOf(s, best.match) };
  }
  return null;
}

const TARGET_TRIGGER =
  /\btarget(?:s|ed|ing)?\b|\bfocus(?:es|ed|ing)? (?:on|its|their)\b|\bvictims?\b|\bagainst\b|\bcompromis(?:e|es|ed|ing)\b|\bintrusions? (?:in|into|against)\b|\boperations (?:in|against)\b|\battacks? (?:on|in|against)\b|\binterested in\b|\bexpanded to include\b/i;

export interface Victimology {
  readonly sectors: readonly string[];
  readonly regions: readonly string[];
  /** The sentences (from their trigger word on, at most 300 characters each) the sectors and regions came from. */
  readonly basis: readonly string[];
}

/** Victim sectors and places named after a targeting word ("has targeted ...", "victims in ...") in any sentence of the description. */
export function deriveVictimology(description: string): Victimology {
  const sectors = new Set<string>();
  const regions = new Set<string>();
  const basis: string[] = [];
  for (const s of sentences(cleanDescription(description))) {
    const m = TARGET_TRIGGER.exec(s);
    if (!m) continue;
    const tail = s.slice(m.index);
    const foundSectors = findSectors(tail, { prose: true });
    const foundPlaces = findPlaces(tail);
    if (foundSectors.length === 0 && foundPlaces.length === 0) continue;
    for (const x of foundSectors) sectors.add(x);
    for (const x of foundPlaces) regions.add(x);
    basis.push(tail.length <= 300 ? tail : `${tail.slice(0, 297)}...`);
  }
  // "Worldwide" beside named places adds nothing to matching but is kept: it tells the scorer victimology is broad.
  return { sectors: [...sectors].sort(), regions: [...regions].sort((a, b) => (a === WORLDWIDE ? -1 : b === WORLDWIDE ? 1 : a.localeCompare(b))), basis };
}

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
const YEAR_PATTERNS: readonly { readonly rule: string; readonly pattern: RegExp }[] = [
  { rule: 'active:since', pattern: new RegExp(`\\bsince (?:at least )?(?:(?:early|late|mid)[- ]?)?(?:${MONTH} )?((?:19|20)\\d{2})\\b`, 'gi') },
  {
    rule: 'active:first-observed',
    pattern: new RegExp(`\\bfirst (?:observed|seen|reported|identified|detected|spotted|active) (?:in )?(?:(?:early|late|mid)[- ]?)?(?:${MONTH} )?((?:19|20)\\d{2})\\b`, 'gi'),
  },
];

/** The earliest year the description says the group was active in ("active since at least 2014", "first observed in December 2015"). */
export function deriveFirstActiveYear(description: string): Derived<number> | null {
  const text = cleanDescription(description);
  let best: Derived<number> | null = null;
  for (const { rule, pattern } of YEAR_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const year = Number(m[1]);
      // The earliest stated year: a later "since 2020, the group shifted to ..." must not move the start.
      if (best === null || year < best.value) best = { value: year, rule, basis: m[0] };
    }
  }
  return best;
}
