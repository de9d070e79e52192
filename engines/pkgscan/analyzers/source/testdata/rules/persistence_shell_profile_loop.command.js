// A completion installer run on its user's command: medium.
const fs = require('fs/promises');
const path = require('path');
function candidates(home) {
  // ruleid: persistence_shell_profile_loop medium
  return ['.bashrc', '.bash_profile', '.profile'].map((f) => path.join(home, f));
}
async function install(rcFile) {
  await fs.appendFile(rcFile, '\nsource <(tool completion script)\n');
}
module.exports = { candidates, install };
