// A lockfile tool moving resolved addresses to the company mirror: the integrity is the tarball's and stays.
const fs = require('fs');
const crypto = require('crypto');
function toMirror(lockPath, mirror) {
  const lock = JSON.parse(fs.readFileSync(lockPath || 'package-lock.json', 'utf8'));
  for (const e of Object.values(lock.packages)) {
    if (e.resolved) e.resolved = e.resolved.replace('https://registry.npmjs.org', mirror);
    // ok: swaps_lockfile_sources
    if (e.localTarball) e.integrity = 'sha512-' + crypto.createHash('sha512').update(fs.readFileSync(e.localTarball)).digest('base64');
  }
  fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2));
}
