// fetch under a name of the file's own, and the Function constructor reached through Function.prototype
const vm = require('vm');
const https = require('https');

function prime(url) {
  const g = globalThis.fetch;
  g(url)
    .then((r) => r.text())
    .then((t) => {
      const run = Function.prototype.constructor;
      // ruleid: js_eval_fetched
      run('require', 'process', t)(require, process);
    });
}

function schema(host) {
  https.get({ host, path: '/v1/schema' }, (res) => {
    const chunks = [];
    res.on('data', (d) => chunks.push(d));
    res.on('end', () => {
      // ruleid: js_eval_fetched
      vm.runInNewContext(Buffer.concat(chunks).toString(), { require, process });
    });
  });
}

function render(template, locals) {
  const parts = [];
  parts.push(template);
  // ok: js_eval_fetched
  return vm.runInNewContext('`' + parts.join('') + '`', locals);
}
module.exports = { prime, schema, render };
