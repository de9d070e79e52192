// Internal shapes of a project scan: a finding before it is stored, and the severity weights behind the risk number.
import type { ProjectFinding } from '../../core/contracts/pkgscan-projects.js';

export type Finding = ProjectFinding;

/** Names that say a variable holds a credential (ENV/ARG, compose environment); values are never echoed. */
export const SECRET_NAME = /(^|[_-])(pass(word|wd)?|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|auth|credentials?|client[_-]?secret)([_-]|$)/i;

/** `0`-based parser line to the 1-based line findings carry. */
export function line1(line0: number | undefined): number | null {
  return line0 === undefined ? null : line0 + 1;
}
