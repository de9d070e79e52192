// Domain-name measures for the DNS rules: registered domain (a small public-suffix table), Shannon entropy, English bigram share, DGA-likeness.

/** Second-level public suffixes common enough to matter (no full Public Suffix List is shipped). */
const TWO_LEVEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'com.au', 'net.au', 'org.au', 'co.nz', 'co.jp', 'ne.jp', 'or.jp', 'co.kr', 'com.br', 'com.cn', 'net.cn',
  'org.cn', 'com.tw', 'com.hk', 'co.in', 'co.za', 'com.mx', 'com.ar', 'com.tr', 'com.sg', 'com.my', 'co.id', 'com.ru', 'com.ua', 'co.il',
  'blogspot.com', 'cloudfront.net', 'amazonaws.com', 'azurewebsites.net', 'herokuapp.com', 'github.io', 'appspot.com',
]);

export interface DomainParts {
  readonly base: string;
  readonly label: string;
  readonly sub: string;
}

/** Names already split (the DNS rules ask about every query, and names repeat); emptied when full. */
const SPLIT = new Map<string, DomainParts>();
const MAX_SPLIT = 65_536;

/** The registered domain (one label below the public suffix) and what is left of it, lower case, without the final dot. */
export function splitDomain(name: string): DomainParts {
  const known = SPLIT.get(name);
  if (known !== undefined) return known;
  const parts = split(name);
  if (SPLIT.size >= MAX_SPLIT) SPLIT.clear();
  SPLIT.set(name, parts);
  return parts;
}

function split(name: string): DomainParts {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.').filter((l) => l !== '');
  if (labels.length <= 1) return { base: labels.join('.'), label: labels[0] ?? '', sub: '' };
  const lastTwo = labels.slice(-2).join('.');
  const suffixLabels = TWO_LEVEL_SUFFIXES.has(lastTwo) && labels.length >= 3 ? 2 : 1;
  const baseLabels = suffixLabels + 1;
  const base = labels.slice(-baseLabels).join('.');
  return { base, label: labels[labels.length - baseLabels] ?? '', sub: labels.slice(0, -baseLabels).join('.') };
}

/** Shannon entropy of the characters, in bits per character. */
export function entropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** About 200 frequent letter pairs of English text (a fixed list; tests pin how it separates real names from generated ones). */
const COMMON_BIGRAMS = new Set(
  (
    'th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ' +
    'ca el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im mi ai ' +
    'sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl ab gh ty op wo sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm ep tt ' +
    'oc fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go'
  ).split(' '),
);

/** Share of adjacent letter pairs that are common in English (pairs with a digit or hyphen count as uncommon). */
export function bigramShare(label: string): number {
  const s = label.toLowerCase();
  if (s.length < 2) return 1;
  let common = 0;
  for (let i = 0; i + 1 < s.length; i++) if (COMMON_BIGRAMS.has(s.slice(i, i + 2))) common += 1;
  return common / (s.length - 1);
}

/** Longest run of consonants (y counts as a vowel here, as it often does in names). */
export function longestConsonantRun(label: string): number {
  let best = 0;
  let run = 0;
  for (const ch of label.toLowerCase()) {
    if (/[bcdfghjklmnpqrstvwxz]/.test(ch)) {
      run += 1;
      if (run > best) best = run;
    } else run = 0;
  }
  return best;
}

export interface NameMeasures {
  readonly length: number;
  readonly entropy: number;
  readonly bigramShare: number;
  readonly consonantRun: number;
  readonly digitShare: number;
}

export function measure(label: string): NameMeasures {
  const digits = [...label].filter((c) => c >= '0' && c <= '9').length;
  return { length: label.length, entropy: entropy(label), bigramShare: bigramShare(label), consonantRun: longestConsonantRun(label), digitShare: label.length === 0 ? 0 : digits / label.length };
}

/** Share of common English pairs among the adjacent letter-letter pairs only (0 when there are none). */
export function letterBigramShare(label: string): number {
  const s = label.toLowerCase();
  let pairs = 0;
  let common = 0;
  for (let i = 0; i + 1 < s.length; i++) {
    const pair = s.slice(i, i + 2);
    if (!/^[a-z]{2}$/.test(pair)) continue;
    pairs += 1;
    if (COMMON_BIGRAMS.has(pair)) common += 1;
  }
  return pairs === 0 ? 0 : common / pairs;
}

/**
 * True when a registered-domain label looks machine-made. Labels of 10 or more letters: fewer than 60% common English
 * letter pairs (words and compounds of words score 65% and more; uniform random letters about 45%). Shorter labels
 * (8, 9) need stronger signs: at most 35% and 2.9 bits of entropy (acronym names like msftncsi stay out).
 * Letters mixed with digits (a quarter or more): 10 characters or more, 2.4 bits of entropy (hex strings of 12 reach
 * about 2.5 to 3.5), and letter runs under 5 or, when a longer word is there, under half common pairs among the
 * letters (office365 stays out, hex strings do not).
 */
export function looksGenerated(label: string, minLength = 8): boolean {
  if (label.length < minLength || label.startsWith('xn--')) return false;
  const m = measure(label);
  if (m.digitShare === 1) return false; // all digits: numbering, not a generator
  if (m.digitShare >= 0.25) {
    const longestWord = Math.max(0, ...(label.toLowerCase().match(/[a-z]+/g) ?? []).map((w) => w.length));
    return label.length >= 10 && m.entropy >= 2.4 && (longestWord < 5 || letterBigramShare(label) < 0.5);
  }
  if (label.length >= 10) return m.bigramShare < 0.6;
  return m.bigramShare <= 0.35 && m.entropy >= 2.9;
}
