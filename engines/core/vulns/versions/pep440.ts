// PEP 440 version ordering for PyPI (via @renovatebot/pep440) and PEP 503 name normalisation.
import { compare, valid } from '@renovatebot/pep440';

/** PEP 440 order (-1, 0, 1); null when either is not a PEP 440 version. */
export function comparePep440(a: string, b: string): number | null {
  if (valid(a) === null || valid(b) === null) return null;
  const c = compare(a, b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

export { pep503 } from '../../manifests/context.js';
