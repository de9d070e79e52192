// Child of regexp-guard.test.ts: turns the guard on the way argv[2] says, then runs patterns that backtrack
// exponentially and prints their answers as JSON.
import { runCommandLine } from './cli.js';
import { guardRegExpBacktracking } from './regexp-guard.js';

const how = process.argv[2];
if (how === 'guard') guardRegExpBacktracking();
if (how === 'cli') await runCommandLine({ tool: 'probe', version: '0', help: 'probe', options: { version: { type: 'boolean' } }, dispatch: async () => ({ code: 0, stdout: '', stderr: '' }) }, ['--version']);

const n = 36;
const answers = [
  /^(a+)+$/.exec(`${'a'.repeat(n)}!`),
  // The first branch explodes before the second matches: the fallback must still find the match and its groups.
  /^(?:(a+)+x|(a+)y)$/.exec(`${'a'.repeat(n)}y`),
  /^(\w+\s?)+$/.test(`${'word '.repeat(n)}!`),
];
process.stdout.write(JSON.stringify(answers.map((a) => (a === null || typeof a === 'boolean' ? a : [...a]))));
