const childProcess = require('child_process');
const os = require('node:os');
const https = require('https');

function launch(file) {
  // ruleid: js_hidden_builtin_member
  childProcess['ex' + 'ecFile'](file, []);
}

function machine() {
  // ruleid: js_hidden_builtin_member
  return os[Buffer.from('dXNlckluZm8=', 'base64').toString()]();
}

const verb = 'request';
// ruleid: js_hidden_builtin_member
const send = https[verb];

// ok: js_hidden_builtin_member
const get = https['get'];

// instrumentation wraps each method by a name that varies: not hidden
for (const method of ['request', 'get']) {
  const original = https[method];
  // ok: js_hidden_builtin_member
  https[method] = function wrapped(...args) { return original.apply(this, args); };
}

function call(mod, name, args) {
  // ok: js_hidden_builtin_member
  return childProcess[name](...args);
}

function dispatch(method, url) {
  // ok: js_hidden_builtin_member
  return https[method.toLowerCase()](url);
}
