// a registry manager changes the registry on the user's command, not at install
const fs = require('fs');
// ok: npm_registry_redirect
exports.use = (rc, url) => fs.writeFileSync(rc + '/.npmrc', 'registry=' + url + '\n');
