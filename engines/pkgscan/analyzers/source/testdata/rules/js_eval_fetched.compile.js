const https = require('https');
const vm = require('vm');
https.get(url, (r) => {
  let d = '';
  r.on('data', (c) => (d += c));
  r.on('end', () => {
    const m = new module.constructor();
    // ruleid: js_eval_fetched
    m._compile(d, 'm.js');
    // ruleid: js_eval_fetched
    vm.runInThisContext(d, { filename: 'x.js' });
  });
});
function load(mod, filename, source) {
  // a require hook compiling the source it transformed: no network in it
  // ok: js_eval_fetched
  mod._compile(transform(source), filename);
}
process.on('message', (m) => {
  // a worker running what its parent process sends over IPC: not fetched code
  // ok: js_eval_fetched
  repl.eval(m.cmd, global, undefined, (err, result) => process.send({ err, result }));
});
