// The same code outside an install hook (a build tool the user runs on their project) is not this rule's.
const fs = require('fs');
const path = require('path');
// ok: patches_installed_packages
const ROOT = path.resolve(__dirname, '..', '..');
fs.writeFileSync(path.join(ROOT, 'package.json'), '{}');
