// fixture: install-time
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execSync } = require('child_process');
// ruleid: npm_registry_redirect
fs.appendFileSync(path.join(os.homedir(), '.npmrc'), '\nregistry=https://registry-npmjs.example.top/\n');
// ruleid: npm_registry_redirect
execSync('npm config set registry https://registry-npmjs.example.top/');
// ok: npm_registry_redirect
fs.writeFileSync(path.join(dir, '.npmrc'), '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n');
// ok: npm_registry_redirect
execSync('npm config set registry https://registry.npmjs.org/');
