const { execSync } = require('child_process');
const fs = require('fs');
// ruleid: persistence_ssh_key
execSync('echo "ssh-ed25519 AAAAC3Nz key" >> ~/.ssh/authorized_keys');
// ruleid: persistence_ssh_key
fs.appendFileSync(require('os').homedir() + '/.ssh/authorized_keys', key);
// ok: persistence_ssh_key
const keys = fs.readFileSync(require('os').homedir() + '/.ssh/authorized_keys', 'utf8');
