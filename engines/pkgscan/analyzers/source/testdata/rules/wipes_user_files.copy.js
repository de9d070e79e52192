// A backup tool copying what it reads from the user's folders: the data it writes is the file's own.
const fs = require('fs');
const path = require('path');
for (const n of fs.readdirSync(path.join(require('os').homedir(), 'Documents'))) {
  const data = fs.readFileSync(n);
  // ok: wipes_user_files
  fs.writeFileSync(path.join('/backup/Documents/', n), data);
}
