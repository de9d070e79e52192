// Engine-written prose as the app writes it: the engines' summaries and titles are contract values (stored, exported,
// pinned by tests) and keep their plain-text forms; on screen, "3 causal link(s)" is "3 causal links", "1 node(s)" is
// "1 node", and a chain "recon -> access" is "recon → access". Only for prose the engines write, never for evidence
// values (a command line's "->" is the attacker's, and stays).

/**
 * A count, up to four words, then a word ending in "(s)": the word agrees with the count. A plural verb ("were",
 * "are", "have") up to five plain words after it (no punctuation, no "and"/"or", no other count between) agrees too:
 * "1 base feature(s) missing from some flows were read as 0" is "1 base feature missing from some flows was read as 0".
 */
const COUNTED = /\b(\d[\d,]*(?:\.\d+)?)((?:[ \u00a0]+[A-Za-z][\w-]*){0,4}?[ \u00a0]+)([A-Za-z][\w-]*)\(s\)(?:((?:[ \u00a0]+(?!(?:and|or|were|are|have)\b)[A-Za-z][\w-]*){0,5}?[ \u00a0]+)(were|are|have)\b)?/g;
const SINGULAR_VERB: Readonly<Record<string, string>> = { were: 'was', are: 'is', have: 'has' };
/** An arrow between two words or values, with a space either side. */
const ARROW = / -> /g;

export function displayProse(text: string): string {
  return text
    .replace(COUNTED, (_, count: string, between: string, word: string, beforeVerb: string | undefined, verb: string | undefined) => {
      const one = Number(count.replace(/,/g, '')) === 1;
      const tail = verb === undefined ? '' : `${beforeVerb ?? ''}${one ? (SINGULAR_VERB[verb] ?? verb) : verb}`;
      return `${count}${between}${one ? word : `${word}s`}${tail}`;
    })
    .replace(ARROW, ' → ');
}

/** The word agreeing with a count written apart from it: "hour" for 1, "hours" for any other (0, 2, 1.5, none yet). */
export function agreeing(n: number, word: string, plural = `${word}s`): string {
  return n === 1 ? word : plural;
}

/** "1 layer", "3 layers", "1,204 packages": a count with grouped digits and the word agreeing with it. */
export function counted(n: number, word: string, plural = `${word}s`): string {
  return `${n.toLocaleString('en')} ${agreeing(n, word, plural)}`;
}
