// a task runner: each step runs in the directory its configuration names, joined once to the project root; the
// process's own directory is what a shell library moves
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

function runSteps(root, steps) {
  for (const step of steps) {
    // ok: remote_shell_directory
    const dir = path.resolve(root, step.dir || '.');
    execSync(step.run, { cwd: dir, stdio: 'inherit' });
  }
  return fs.readdirSync(root);
}

function cd(dir) {
  // ok: remote_shell_directory
  process.chdir(path.resolve(process.cwd(), dir));
}
module.exports = { runSteps, cd };
