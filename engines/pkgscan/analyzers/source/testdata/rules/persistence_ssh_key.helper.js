// authorized_keys appended to through the file's own helper.
const fs = require('fs');
const path = require('path');
function append(file, text) {
  fs.appendFileSync(file, '\n' + text + '\n');
}
// ruleid: persistence_ssh_key
append(path.join(require('os').homedir(), '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA deploy@x');
// ok: persistence_ssh_key
const keys = fs.readFileSync(path.join(require('os').homedir(), '.ssh', 'authorized_keys'), 'utf8');
