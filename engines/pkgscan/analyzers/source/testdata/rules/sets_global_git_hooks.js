const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
function ensure() {
  const dir = path.join(os.homedir(), '.config', 'git', 'hooks-shared');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pre-push'), TEMPLATE, { mode: 0o755 });
  // ruleid: sets_global_git_hooks
  execFileSync('git', ['config', '--global', 'core.hooksPath', dir]);
}
