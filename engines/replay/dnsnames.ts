// Domain-name measures for the DNS rules: registered domain (a small public-suffix table), Shannon entropy, English bigram share, DGA-likeness.

/** Second-level public suffixes common enough to matter (no full Public Suffix List is shipped). */
const TWO_LEVEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'com.au', 'net.au', 'org.au', 'co.nz', 'co.jp', 'ne.jp', 'or.jp', 'co.kr', 'com.br', 'com.cn', 'net.cn',
  'org.cn', 'com.tw', 'com.hk', 'co.in', 'co.za', 'com.mx', 'com.ar', 'com.tr', 'com.sg', 'com.my', 'co.id', 'com.ru', 'com.ua', 'co.il',
  'blogspot.com', 'cloudfront.net', 'amazonaws.com', 'azurewebsites.net', 'herokuapp.com', 'github.io', 'appspot.com',
]);

/** The registered domain (one label below the public suffix) and what is left of it, lower case, without the final dot. */
export function splitDomain(name: string): { base: string; label: string; sub: string } {
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

/**
 * True when a registered-domain label looks machine-made: long enough to judge (8+), few English letter pairs,
 * and either high character entropy, a long consonant run, or many digits mixed with letters.
 */
export function looksGenerated(label: string, minLength = 8): boolean {
  if (label.length < minLength || label.startsWith('xn--')) return false;
  const m = measure(label);
  if (m.digitShare === 1) return false; // all digits: numbering, not a generator
  if (m.bigramShare > 0.4) return false;
  return m.entropy >= 3.0 || m.consonantRun >= 5 || (m.digitShare >= 0.25 && m.entropy >= 2.8);
}
