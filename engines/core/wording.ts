// Words in the text engines write for people (explanations, alert titles, search hits): a count with its noun in the right number.

/** `1 section`, `3 sections`, `2 hypotheses` (the plural given where adding an s is wrong). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
