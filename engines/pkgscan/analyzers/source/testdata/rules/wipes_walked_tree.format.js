// A formatter walks the project and writes each file's own new text.
const fs = require('fs');
const path = require('path');
function format(dir) {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    const out = pretty(fs.readFileSync(p, 'utf8'));
    // ok: wipes_walked_tree
    fs.writeFileSync(p, out);
  }
}
format(process.cwd());
