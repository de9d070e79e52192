// The controlled vocabularies of victimology (sectors, countries, regions) shared by the knowledge-graph builder and the scorer.

/** A sector of the shared vocabulary and the words that name it, in ATT&CK descriptions and in case files. */
export interface SectorTerm {
  readonly name: string;
  /** Matched against text with word boundaries; case-insensitive unless the term is all capitals (`IT`). */
  readonly terms: readonly string[];
}

// Terms are phrases, not stems: "financial" must not catch "financially motivated", "cryptocurrency" not "cryptocurrency miners".
export const SECTORS: readonly SectorTerm[] = [
  { name: 'government', terms: ['government', 'governments', 'governmental', 'ministry', 'ministries', 'public sector', 'public administration', 'embassy', 'embassies', 'diplomatic', 'diplomats', 'local government', 'municipal', 'law enforcement', 'judiciary', 'public organizations', 'state institutions', 'government institutions', 'policy', 'ministries of foreign affairs', 'ministry of foreign affairs'] },
  { name: 'defense', terms: ['defense', 'defence', 'defense industrial base', 'defense contractors', 'military', 'armed forces'] },
  { name: 'financial', terms: ['financial', 'finance', 'financial services', 'financial institutions', 'bank', 'banks', 'banking', 'insurance', 'ATM', 'ATMs', 'SWIFT', 'payment card', 'fintech', 'e-currency'] },
  { name: 'cryptocurrency', terms: ['cryptocurrency', 'cryptocurrencies', 'cryptocurrency exchanges', 'blockchain', 'crypto exchanges'] },
  { name: 'energy', terms: ['energy', 'oil', 'oil and gas', 'natural gas', 'petroleum', 'petrochemical', 'electric', 'electrical', 'electricity', 'power companies', 'power grid', 'utilities', 'nuclear'] },
  { name: 'telecommunications', terms: ['telecommunications', 'telecommunication', 'telecom', 'telecoms', 'telco', 'internet service providers', 'ISP', 'ISPs', 'mobile operators'] },
  { name: 'technology', terms: ['technology', 'high-tech', 'high tech', 'IT', 'information technology', 'software', 'semiconductor', 'electronics', 'IT service providers', 'managed service providers', 'MSPs', 'cloud services', 'cybersecurity', 'tech'] },
  { name: 'healthcare', terms: ['healthcare', 'health care', 'health', 'medical', 'hospital', 'hospitals', 'pharmaceutical', 'pharmaceuticals', 'biotechnology', 'infectious disease researchers'] },
  { name: 'education', terms: ['education', 'educational', 'academic', 'academia', 'academics', 'university', 'universities', 'higher education', 'research institutes', 'research institutions', 'research entities', 'research organizations', 'schools'] },
  { name: 'media', terms: ['media', 'journalists', 'news', 'news media', 'broadcasting', 'publishing'] },
  { name: 'manufacturing', terms: ['manufacturing', 'manufacturers', 'industrial', 'chemical', 'chemicals', 'industrial chemistry', 'mining', 'engineering', 'automotive', 'construction'] },
  { name: 'aerospace', terms: ['aerospace', 'aviation', 'airline', 'airlines', 'space'] },
  { name: 'transportation', terms: ['transportation', 'transport', 'logistics', 'maritime', 'shipping', 'travel', 'railway', 'railways', 'airports'] },
  { name: 'hospitality', terms: ['hospitality', 'hotel', 'hotels', 'restaurant', 'restaurants', 'food and beverage'] },
  { name: 'gambling', terms: ['casino', 'casinos', 'gambling', 'betting', 'gambling/betting', 'video game', 'online gaming'] },
  { name: 'retail', terms: ['retail', 'point of sale', 'e-commerce', 'consumer goods'] },
  { name: 'legal', terms: ['legal', 'law firms', 'legal services'] },
  { name: 'ngo', terms: ['NGO', 'NGOs', 'non-governmental', 'nongovernmental', 'non-government', 'non-profit', 'nonprofit', 'human rights', 'dissidents', 'activists', 'religious', 'civil society'] },
  { name: 'think tanks', terms: ['think tank', 'think tanks'] },
  { name: 'critical infrastructure', terms: ['critical infrastructure', 'industrial control systems', 'operational technology', 'water utilities'] },
  { name: 'professional services', terms: ['business services', 'consulting', 'professional services', 'accounting'] },
];

/** A place: a country (with region memberships) or a region (with parent regions). */
export interface Place {
  readonly name: string;
  readonly kind: 'country' | 'region';
  /** Regions that directly contain this place. */
  readonly within: readonly string[];
  /** Other names and adjectives (`Ukrainian`, `U.S.`, `DPRK`). */
  readonly aliases: readonly string[];
}

export const WORLDWIDE = 'Worldwide';

const REGION_LIST: readonly [string, readonly string[], readonly string[]][] = [
  [WORLDWIDE, [], ['global', 'globally', 'worldwide', 'around the world']],
  ['Europe', [WORLDWIDE], ['European', 'EU']],
  ['Eastern Europe', ['Europe'], ['Eastern European']],
  ['Western Europe', ['Europe'], ['Western European']],
  ['Asia', [WORLDWIDE], ['Asian']],
  ['East Asia', ['Asia'], ['East Asian']],
  ['Southeast Asia', ['Asia'], ['Southeast Asian', 'South East Asia', 'South-East Asia', 'ASEAN']],
  ['South Asia', ['Asia'], ['South Asian']],
  ['Central Asia', ['Asia'], ['Central Asian']],
  ['Asia-Pacific', [WORLDWIDE], ['APAC', 'Asia Pacific', 'Asia-Pacific-Japan', 'APJ']],
  ['Middle East', [WORLDWIDE], ['Middle Eastern', 'Gulf', 'Persian Gulf']],
  ['Africa', [WORLDWIDE], ['African']],
  ['North Africa', ['Africa'], ['North African']],
  ['Americas', [WORLDWIDE], []],
  ['North America', ['Americas'], ['North American']],
  ['Latin America', ['Americas'], ['Latin American']],
  ['South America', ['Latin America'], ['South American']],
  ['Central America', ['Latin America'], ['Central American']],
  ['Caribbean', ['Latin America'], []],
  ['Oceania', [WORLDWIDE], []],
];

// [name, regions it lies in, aliases and adjectives]
const COUNTRY_LIST: readonly [string, readonly string[], readonly string[]][] = [
  ['United States', ['North America'], ['US', 'USA', 'U.S.', 'U.S.A.', 'United States of America', 'American']],
  ['Canada', ['North America'], ['Canadian']],
  ['Mexico', ['North America', 'Latin America'], ['Mexican']],
  ['Guam', ['North America', 'Oceania'], []],
  ['Brazil', ['South America'], ['Brazilian']],
  ['Argentina', ['South America'], ['Argentinian', 'Argentine']],
  ['Chile', ['South America'], ['Chilean']],
  ['Colombia', ['South America'], ['Colombian']],
  ['Venezuela', ['South America'], ['Venezuelan']],
  ['Peru', ['South America'], ['Peruvian']],
  ['Ecuador', ['South America'], ['Ecuadorian']],
  ['Bolivia', ['South America'], ['Bolivian']],
  ['Uruguay', ['South America'], ['Uruguayan']],
  ['Paraguay', ['South America'], ['Paraguayan']],
  ['Cuba', ['Caribbean'], ['Cuban']],
  ['Nicaragua', ['Central America'], ['Nicaraguan']],
  ['Panama', ['Central America'], ['Panamanian']],
  ['Guatemala', ['Central America'], ['Guatemalan']],
  ['United Kingdom', ['Western Europe'], ['UK', 'U.K.', 'Britain', 'Great Britain', 'British', 'England']],
  ['Ireland', ['Western Europe'], ['Irish']],
  ['France', ['Western Europe'], ['French']],
  ['Germany', ['Western Europe'], ['German']],
  ['Netherlands', ['Western Europe'], ['Dutch', 'the Netherlands', 'Holland']],
  ['Belgium', ['Western Europe'], ['Belgian']],
  ['Luxembourg', ['Western Europe'], []],
  ['Switzerland', ['Western Europe'], ['Swiss']],
  ['Austria', ['Western Europe'], ['Austrian']],
  ['Spain', ['Western Europe'], ['Spanish']],
  ['Portugal', ['Western Europe'], ['Portuguese']],
  ['Italy', ['Western Europe'], ['Italian']],
  ['Greece', ['Europe'], ['Greek']],
  ['Malta', ['Europe'], ['Maltese']],
  ['Cyprus', ['Europe', 'Middle East'], ['Cypriot']],
  ['Denmark', ['Europe'], ['Danish']],
  ['Norway', ['Europe'], ['Norwegian']],
  ['Sweden', ['Europe'], ['Swedish']],
  ['Finland', ['Europe'], ['Finnish']],
  ['Iceland', ['Europe'], ['Icelandic']],
  ['Estonia', ['Eastern Europe'], ['Estonian']],
  ['Latvia', ['Eastern Europe'], ['Latvian']],
  ['Lithuania', ['Eastern Europe'], ['Lithuanian']],
  ['Poland', ['Eastern Europe'], ['Polish']],
  ['Czech Republic', ['Eastern Europe'], ['Czechia', 'Czech']],
  ['Slovakia', ['Eastern Europe'], ['Slovak']],
  ['Hungary', ['Eastern Europe'], ['Hungarian']],
  ['Romania', ['Eastern Europe'], ['Romanian']],
  ['Bulgaria', ['Eastern Europe'], ['Bulgarian']],
  ['Serbia', ['Eastern Europe'], ['Serbian']],
  ['Croatia', ['Eastern Europe'], ['Croatian']],
  ['Slovenia', ['Eastern Europe'], ['Slovenian']],
  ['Bosnia and Herzegovina', ['Eastern Europe'], ['Bosnia']],
  ['Montenegro', ['Eastern Europe'], []],
  ['North Macedonia', ['Eastern Europe'], ['Macedonia']],
  ['Albania', ['Eastern Europe'], ['Albanian']],
  ['Moldova', ['Eastern Europe'], ['Moldovan']],
  ['Ukraine', ['Eastern Europe'], ['Ukrainian']],
  ['Belarus', ['Eastern Europe'], ['Belarusian', 'Belorussian']],
  ['Russia', ['Eastern Europe', 'Asia'], ['Russian', 'Russian Federation']],
  ['Georgia', ['Eastern Europe', 'Asia'], ['Georgian']],
  ['Armenia', ['Eastern Europe', 'Asia'], ['Armenian']],
  ['Azerbaijan', ['Eastern Europe', 'Asia'], ['Azerbaijani']],
  ['Turkey', ['Europe', 'Middle East'], ['Türkiye', 'Turkish']],
  ['Kazakhstan', ['Central Asia'], ['Kazakh']],
  ['Uzbekistan', ['Central Asia'], ['Uzbek']],
  ['Kyrgyzstan', ['Central Asia'], ['Kyrgyz']],
  ['Tajikistan', ['Central Asia'], ['Tajik']],
  ['Turkmenistan', ['Central Asia'], ['Turkmen']],
  ['Mongolia', ['East Asia'], ['Mongolian']],
  ['China', ['East Asia'], ['Chinese', "People's Republic of China", 'PRC']],
  ['Hong Kong', ['East Asia'], []],
  ['Taiwan', ['East Asia'], ['Taiwanese']],
  ['Japan', ['East Asia'], ['Japanese']],
  ['South Korea', ['East Asia'], ['South Korean', 'Republic of Korea', 'ROK']],
  ['North Korea', ['East Asia'], ['North Korean', 'DPRK', "Democratic People's Republic of Korea"]],
  ['Vietnam', ['Southeast Asia'], ['Vietnamese', 'Viet Nam']],
  ['Laos', ['Southeast Asia'], ['Lao', 'Laotian']],
  ['Cambodia', ['Southeast Asia'], ['Cambodian']],
  ['Thailand', ['Southeast Asia'], ['Thai']],
  ['Myanmar', ['Southeast Asia'], ['Burma', 'Burmese']],
  ['Malaysia', ['Southeast Asia'], ['Malaysian']],
  ['Singapore', ['Southeast Asia'], ['Singaporean']],
  ['Indonesia', ['Southeast Asia'], ['Indonesian']],
  ['Philippines', ['Southeast Asia'], ['the Philippines', 'Philippine', 'Filipino']],
  ['Brunei', ['Southeast Asia'], []],
  ['India', ['South Asia'], ['Indian']],
  ['Pakistan', ['South Asia'], ['Pakistani']],
  ['Afghanistan', ['South Asia', 'Central Asia'], ['Afghan', 'Afghani']],
  ['Bangladesh', ['South Asia'], ['Bangladeshi']],
  ['Nepal', ['South Asia'], ['Nepalese', 'Nepali']],
  ['Sri Lanka', ['South Asia'], ['Sri Lankan']],
  ['Bhutan', ['South Asia'], []],
  ['Maldives', ['South Asia'], []],
  ['Iran', ['Middle East'], ['Iranian', 'Persian']],
  ['Iraq', ['Middle East'], ['Iraqi']],
  ['Israel', ['Middle East'], ['Israeli']],
  ['Palestine', ['Middle East'], ['Palestinian', 'Palestinian territories', 'Gaza']],
  ['Lebanon', ['Middle East'], ['Lebanese']],
  ['Syria', ['Middle East'], ['Syrian']],
  ['Jordan', ['Middle East'], ['Jordanian']],
  ['Saudi Arabia', ['Middle East'], ['Saudi', 'Saudi Arabian']],
  ['United Arab Emirates', ['Middle East'], ['UAE', 'Emirati']],
  ['Qatar', ['Middle East'], ['Qatari']],
  ['Kuwait', ['Middle East'], ['Kuwaiti']],
  ['Bahrain', ['Middle East'], ['Bahraini']],
  ['Oman', ['Middle East'], ['Omani']],
  ['Yemen', ['Middle East'], ['Yemeni']],
  ['Egypt', ['North Africa', 'Middle East'], ['Egyptian']],
  ['Libya', ['North Africa'], ['Libyan']],
  ['Tunisia', ['North Africa'], ['Tunisian']],
  ['Algeria', ['North Africa'], ['Algerian']],
  ['Morocco', ['North Africa'], ['Moroccan']],
  ['Sudan', ['Africa'], ['Sudanese']],
  ['Ethiopia', ['Africa'], ['Ethiopian']],
  ['Kenya', ['Africa'], ['Kenyan']],
  ['Nigeria', ['Africa'], ['Nigerian']],
  ['Ghana', ['Africa'], ['Ghanaian']],
  ['South Africa', ['Africa'], ['South African']],
  ['Mozambique', ['Africa'], ['Mozambican']],
  ['Rwanda', ['Africa'], ['Rwandan']],
  ['Uganda', ['Africa'], ['Ugandan']],
  ['Tanzania', ['Africa'], ['Tanzanian']],
  ['Angola', ['Africa'], ['Angolan']],
  ['Zimbabwe', ['Africa'], []],
  ['Cameroon', ['Africa'], []],
  ['Senegal', ['Africa'], []],
  ['Australia', ['Oceania', 'Asia-Pacific'], ['Australian']],
  ['New Zealand', ['Oceania', 'Asia-Pacific'], []],
];

function buildPlaces(): ReadonlyMap<string, Place> {
  const places = new Map<string, Place>();
  for (const [name, within, aliases] of REGION_LIST) places.set(name, { name, kind: 'region', within, aliases });
  for (const [name, within, aliases] of COUNTRY_LIST) places.set(name, { name, kind: 'country', within, aliases });
  // Asia-Pacific holds the Asian subregions and Oceania besides the countries listed in it.
  return places;
}

export const PLACES: ReadonlyMap<string, Place> = buildPlaces();

const ASIA_PACIFIC_MEMBERS = new Set(['East Asia', 'Southeast Asia', 'South Asia', 'Oceania']);

const containing = new Map<string, ReadonlySet<string>>();

/** Every region that contains `place`, transitively (not the place itself). Memoised: the scorer asks per actor and item. */
export function regionsContaining(place: string): ReadonlySet<string> {
  const hit = containing.get(place);
  if (hit) return hit;
  const out = new Set<string>();
  const stack = [place];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    const p = PLACES.get(current);
    const parents = [...(p?.within ?? []), ...(ASIA_PACIFIC_MEMBERS.has(current) ? ['Asia-Pacific'] : [])];
    for (const parent of parents) {
      if (!out.has(parent)) {
        out.add(parent);
        stack.push(parent);
      }
    }
  }
  if (PLACES.has(place)) containing.set(place, out);
  return out;
}

/** True when region `outer` contains `inner` (strictly). */
export function placeContains(outer: string, inner: string): boolean {
  return regionsContaining(inner).has(outer);
}

/** A lookup key: lower case, `&` as `and`, punctuation and spaces removed, so `Oil & Gas`, `oil-and-gas` and `Oil and gas` meet. */
export function vocabularyKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function buildIndex<T extends { readonly name: string }>(items: readonly T[], names: (item: T) => readonly string[]): ReadonlyMap<string, string> {
  const index = new Map<string, string>();
  for (const item of items) for (const n of [item.name, ...names(item)]) if (!index.has(vocabularyKey(n))) index.set(vocabularyKey(n), item.name);
  return index;
}

const SECTOR_INDEX = buildIndex(SECTORS, (s) => s.terms);
const PLACE_INDEX = buildIndex([...PLACES.values()], (p) => p.aliases);

/** The vocabulary sector a case names (`Banking` -> `financial`), or null. Whole-phrase match only, then sector words inside the phrase. */
export function normaliseSector(text: string): string | null {
  const direct = SECTOR_INDEX.get(vocabularyKey(text));
  if (direct !== undefined) return direct;
  const found = findSectors(text);
  return found.length === 1 ? (found[0] as string) : null;
}

/** The vocabulary place a case names (`Ukrainian` -> `Ukraine`, `APAC` -> `Asia-Pacific`), or null. */
export function normalisePlace(text: string): string | null {
  return PLACE_INDEX.get(vocabularyKey(text)) ?? null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// All-capital terms (IT, ATM, NGO, US, UK) match only in capitals: "it" and "us" are ordinary words.
const isCapitalTerm = (term: string): boolean => /^[A-Z.]+s?$/.test(term) && term.length <= 6;

/** Every term of a vocabulary in two alternations (case-insensitive words, case-sensitive capitals), longest first. */
interface TermTable {
  readonly patterns: readonly RegExp[];
  /** Lower-cased term (insensitive) or exact term (capitals) -> vocabulary name. */
  readonly names: ReadonlyMap<string, string>;
}

function termTable(entries: readonly (readonly [term: string, name: string])[]): TermTable {
  const names = new Map<string, string>();
  const words: string[] = [];
  const capitals: string[] = [];
  for (const [term, name] of entries) {
    const key = isCapitalTerm(term) ? term : term.toLowerCase();
    if (names.has(key)) continue;
    names.set(key, name);
    (isCapitalTerm(term) ? capitals : words).push(term);
  }
  const alternation = (terms: string[]): string => [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  // A term is a whole word: not inside another word, and not the first half of a hyphenated one ("China-based").
  const wrap = (alt: string, flags: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}-])(?:${alt})(?![\\p{L}\\p{N}]|-(?!\\s))`, flags);
  return { patterns: [...(words.length > 0 ? [wrap(alternation(words), 'giu')] : []), ...(capitals.length > 0 ? [wrap(alternation(capitals), 'gu')] : [])], names };
}

interface TermMatch {
  readonly name: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Matches of a table in `text`, longest first where two overlap ("South Korea" over "Korea"), in text order. */
function scan(table: TermTable, text: string): TermMatch[] {
  const found: TermMatch[] = [];
  for (const pattern of table.patterns) {
    for (const m of text.matchAll(pattern)) {
      const name = table.names.get(pattern.flags.includes('i') ? m[0].toLowerCase() : m[0]);
      if (name !== undefined) found.push({ name, text: m[0], start: m.index, end: m.index + m[0].length });
    }
  }
  return keepLongest(found, text.length);
}

/**
 * Of matches in a text of `length` characters, those kept when the longest (then the earliest) are taken first and a
 * match overlapping one taken is dropped; in text order. A match is kept when none of its characters is taken: one
 * look per character, not a comparison with every kept match (150,000 matches of "Russia " took 15 s that way).
 */
export function keepLongest<T extends { readonly start: number; readonly end: number }>(found: readonly T[], length: number): T[] {
  const order = [...found].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken = new Uint8Array(length);
  const kept: T[] = [];
  for (const f of order) {
    if (taken.subarray(f.start, f.end).includes(1)) continue;
    taken.fill(1, f.start, f.end);
    kept.push(f);
  }
  return kept.sort((a, b) => a.start - b.start);
}

// Phrases that contain a sector word but name no victim sector.
const SECTOR_EXCLUSIONS: readonly RegExp[] = [/cryptocurrency min(?:ers?|ing)/giu, /financially[- ]motivated/giu, /defen[cs]e evasion/giu, /state[- ](?:sponsored|backed)/giu];

const SECTOR_TABLE = termTable(SECTORS.flatMap((s) => s.terms.map((t) => [t, s.name] as const)));
const SECTOR_ORDER = new Map(SECTORS.map((s, i) => [s.name, i]));

/**
 * Sectors named anywhere in `text`, in vocabulary order. With `prose`, a capitalised word is a name, not a sector
 * ("the Organization for the Prohibition of Chemical Weapons" names no chemical-industry victim); acronyms still count.
 */
export function findSectors(text: string, options: { readonly prose?: boolean } = {}): string[] {
  let cleaned = text;
  for (const ex of SECTOR_EXCLUSIONS) cleaned = cleaned.replace(ex, ' ');
  const found = new Set<string>();
  for (const m of scan(SECTOR_TABLE, cleaned)) {
    const first = m.text.charAt(0);
    // Acronyms ("IT service providers") and foreign ministries are written capitalised but are victim sectors, not names.
    if (options.prose === true && first !== first.toLowerCase() && !/^[A-Z]{2,}s?\b/.test(m.text) && !/of Foreign Affairs$/.test(m.text)) continue;
    found.add(m.name);
  }
  return [...found].sort((a, b) => (SECTOR_ORDER.get(a) ?? 0) - (SECTOR_ORDER.get(b) ?? 0));
}

const PLACE_TABLE = termTable([...PLACES.values()].flatMap((p) => [p.name, ...p.aliases].map((t) => [t, p.name] as const)));

/** Places named anywhere in `text`, in text order; a longer name wins over a shorter one inside it (`South Korea` over `Korea`). */
export function findPlaces(text: string): string[] {
  return [...new Set(scan(PLACE_TABLE, text).map((m) => m.name))];
}

/** State names a sponsor phrase may give, by adjective or name, mapped to the country. */
export function countryOf(text: string): string | null {
  const name = normalisePlace(text);
  return name !== null && PLACES.get(name)?.kind === 'country' ? name : null;
}
