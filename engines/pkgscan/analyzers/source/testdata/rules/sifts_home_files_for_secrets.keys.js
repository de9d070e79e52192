// A key picker: the SSH folder listed and private keys told apart from public ones, no other secret looked for.
const fs = require('fs');
const path = require('path');
const dir = path.join(require('os').homedir(), '.ssh');
// ok: sifts_home_files_for_secrets
const keys = fs.readdirSync(dir).filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('PRIVATE KEY'));
