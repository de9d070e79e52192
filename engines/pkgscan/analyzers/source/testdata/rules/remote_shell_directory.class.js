// a compiled agent's shell module: the held directory on the instance, a pwd command to read it back
const child_process_1 = require('child_process');
const path = require('path');
class ShellModule {
  constructor() { this.cwd = process.cwd(); }
  commands() {
    return {
      exec: ({ cmd }) => new Promise((res) => (0, child_process_1.exec)(cmd, { cwd: this.cwd, maxBuffer: 1 << 25 }, (e, o, s) => res(o + s))),
      // ruleid: remote_shell_directory
      cd: ({ dir }) => (this.cwd = path.resolve(this.cwd, dir)),
      pwd: () => this.cwd,
    };
  }
}
exports.ShellModule = ShellModule;
