// A function of the file's own fetches and hands its callback the body; the body compiled as a module.
const https = require('https');
const Module = require('module');
function load(cb) {
  https
    .get('https://cdn.example-static.net/runtime.js', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => cb(null, body));
    })
    .on('error', cb);
}
load((err, code) => {
  const m = new Module('runtime.js', module);
  // ruleid: js_eval_fetched
  Module.prototype._compile.call(m, code, 'runtime.js');
});
function render(cb) {
  cb(null, '<p></p>');
}
render((err, html) => {
  // ok: js_eval_fetched
  Module.prototype._compile.call(module, html, 'x.js');
});
