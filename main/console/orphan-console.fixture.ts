// A workstation stand-in for the Console orphan test: starts one Console run that spins forever (with the parent watch
// loaded, as launchFor loads it) and passes its output through; the test kills this process with SIGKILL.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ConsoleRuns } from './runs.js';

const [dataDir, script] = process.argv.slice(2) as [string, string];
const watch = new URL('./parent-watch.ts', import.meta.url).href;
// the run's working directory is the data folder: tsx is named by its resolved location, as launchFor does
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const runs = new ConsoleRuns({ dataDir, launch: (_name, args) => ({ command: process.execPath, args: ['--import', tsx, '--import', watch, script, ...args] }) });
const info = runs.start({ argv: ['pkgscan', 'spin'] });
runs.subscribe(info.id, (e) => {
  if (e.kind === 'out') process.stdout.write(e.text);
});
