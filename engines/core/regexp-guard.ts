// One defence, process-wide, against regular expressions that backtrack without end on hostile text (evidence, rule
// files, package sources): V8 runs a pattern that has backtracked too often again on its linear-time engine.
import { setFlagsFromString } from 'node:v8';

/**
 * V8's switch for the fallback: after `--regexp-backtracks-before-fallback` backtracks (50,000 by default) an
 * execution restarts on the non-backtracking engine, whose answer is the same. It covers patterns without the `i` or
 * `u` flags, lookarounds and back-references (V8 11.3, Node 20); the others keep the per-pattern review of
 * `test/redos` and the worker's job deadline. Ordinary executions never reach the threshold and run as before.
 */
export const REGEXP_FALLBACK_FLAG = '--enable-experimental-regexp-engine-on-excessive-backtracks';

let guarded = false;

/** Turns the fallback on for this process (every isolate: worker threads too); idempotent. */
export function guardRegExpBacktracking(): void {
  if (guarded) return;
  setFlagsFromString(REGEXP_FALLBACK_FLAG);
  guarded = true;
}
