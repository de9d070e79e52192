// A backup tool: walks Documents and writes an archive of what it read, never a constant over a file.
const fs = require('fs');
const path = require('path');
const os = require('os');
const src = path.join(os.homedir(), 'Documents');
const parts = [];
for (const name of fs.readdirSync(src)) parts.push(fs.readFileSync(path.join(src, name)));
// ok: wipes_user_files
fs.writeFileSync(path.join(os.tmpdir(), 'backup.bin'), Buffer.concat(parts));
// ok: wipes_user_files
fs.writeFileSync(path.join(os.tmpdir(), 'backup.log'), `${parts.length} files\n`);
