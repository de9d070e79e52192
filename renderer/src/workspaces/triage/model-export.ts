// File names for the exports of a result: the JSON result and the rule as .yar.

/** `triage-<first 12 hex of the SHA-256>.json`: never the picked file's name (it may hold anything). */
export function resultFileName(sha256: string): string {
  return `triage-${sha256.slice(0, 12)}.json`;
}

/** The first rule's identifier as the file name, else `rule.yar`. */
export function ruleFileName(text: string): string {
  const m = /\brule\s+([A-Za-z_][A-Za-z0-9_]{0,63})/.exec(text);
  return `${m ? m[1] : 'rule'}.yar`;
}
