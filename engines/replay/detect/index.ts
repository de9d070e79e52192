// The detector registry: every named rule in the order they run (recon, access, movement, action; later rules see earlier drafts).
import { beaconing } from './beacon.js';
import { ftpBruteforce, httpAuthBruteforce, rdpBruteforce, sshGuessing, vncAuthFailure } from './bruteforce.js';
import { cleartextCredentials } from './cleartext.js';
import { dgaDomains, dnsTunnelling } from './dns.js';
import { knownBadIndicator } from './indicators.js';
import { lateralMovement } from './lateral.js';
import type { AlertDraft, DetectionInput, Rule } from './rule.js';
import { hostScan, portScan } from './scan.js';
import { largeOutboundTransfer } from './transfer.js';
import { sqlInjection } from './web.js';

export type { AlertDraft, DetectionInput, Rule } from './rule.js';
export { THRESHOLDS } from './thresholds.js';

export const RULES: readonly Rule[] = [
  portScan,
  hostScan,
  sshGuessing,
  ftpBruteforce,
  rdpBruteforce,
  httpAuthBruteforce,
  vncAuthFailure,
  sqlInjection,
  cleartextCredentials,
  lateralMovement,
  beaconing,
  dnsTunnelling,
  dgaDomains,
  knownBadIndicator,
  largeOutboundTransfer,
];

/** Runs every rule (or the given ones) in order; a rule sees the drafts of the rules before it. */
export function runRules(input: DetectionInput, rules: readonly Rule[] = RULES, signal?: AbortSignal, onRule?: (done: number, total: number, rule: Rule) => void): AlertDraft[] {
  const drafts: AlertDraft[] = [];
  for (const [i, rule] of rules.entries()) {
    if (signal?.aborted) break;
    onRule?.(i, rules.length, rule);
    drafts.push(...rule.detect(input, drafts));
  }
  return drafts;
}
