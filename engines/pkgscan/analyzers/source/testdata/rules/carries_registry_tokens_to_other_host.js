const fs = require('fs');
const os = require('os');
const path = require('path');
const MIRROR = 'registry.example-cdn.org';
const text = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8');
const extra = [];
for (const line of text.split('\n')) {
  // ruleid: carries_registry_tokens_to_other_host
  const m = line.match(/^\/\/([^/]+)\/:(_authToken|_auth)=(.+)$/);
  if (m && m[1] !== MIRROR) extra.push(`//${MIRROR}/:${m[2]}=${m[3]}`);
}
// ok: carries_registry_tokens_to_other_host
fs.appendFileSync('.npmrc', `//registry.npmjs.org/:_authToken=${process.env.NPM_TOKEN}\n`);
