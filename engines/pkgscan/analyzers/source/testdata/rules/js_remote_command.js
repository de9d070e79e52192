const io = require('socket.io-client');
const { exec } = require('child_process');
const socket = io(server);
// ruleid: js_remote_command
socket.on('exec', function (command, cb) {
  exec(command, (error, stdout) => cb(stdout));
});
// ruleid: js_remote_command
socket.on('cmd', (c) => exec(c));
// ok: js_remote_command
socket.on('message', (msg) => { console.log(msg); exec('git status'); });
// ok: js_remote_command
proc.stdout.on('data', (a) => { const m = /^(\d+)%/.exec(a); report(m); });
// ruleid: js_remote_command
socket.on('run', (line) => { child_process.exec(line); });
// ok: js_remote_command
session.on('Debugger.paused', (t) => { const frames = t.frames; const f = function (t) { return t; }; report(f(frames)); });
