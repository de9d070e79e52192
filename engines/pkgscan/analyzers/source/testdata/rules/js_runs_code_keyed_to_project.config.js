// A configuration loader decrypting the user's own secrets file with the key the user sets: nothing compiled.
const crypto = require('crypto');
const fs = require('fs');
function loadSecrets(file) {
  const key = crypto.createHash('sha256').update(process.env.APP_SECRETS_KEY || '').digest();
  // ok: js_runs_code_keyed_to_project
  const d = crypto.createDecipheriv('aes-256-cbc', key, Buffer.alloc(16, 0));
  const text = d.update(fs.readFileSync(file, 'utf8'), 'hex', 'utf8') + d.final('utf8');
  return { ...JSON.parse(text), app: process.env.npm_package_name };
}
module.exports = { loadSecrets };
