// A build script walks the package's own icons and writes one output of literals.
const fs = require('fs');
const path = require('path');
const ICONS = path.join(__dirname, '..', 'icons');
function build(out) {
  for (const file of fs.readdirSync(ICONS)) {
    // ok: wipes_walked_tree
    fs.writeFileSync(path.join(out, file + '.stamp'), '1');
  }
}
build(path.join(__dirname, '..', 'dist'));
