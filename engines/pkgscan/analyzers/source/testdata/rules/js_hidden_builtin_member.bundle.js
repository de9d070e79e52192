// a bundle reuses one-letter names: `p` is the os module in one function and a list in another
function a() { var p = require('os'); return p.cpus().length; }
function b(p) {
  p = p.split('/');
  // ok: js_hidden_builtin_member
  return p[p.length - 1];
}
const net = require('net');
// ruleid: js_hidden_builtin_member
const open = net[`create${'Connection'}`];
