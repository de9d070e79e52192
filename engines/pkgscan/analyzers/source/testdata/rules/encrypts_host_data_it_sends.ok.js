'use strict';
// a settings store encrypting with the key its user gives, and an update check that sends the version only
const crypto = require('crypto');
const https = require('https');
const os = require('os');
function seal(text, userKey) {
  const key = crypto.scryptSync(userKey, 'salt', 32);
  const iv = crypto.randomBytes(16);
  // ok: encrypts_host_data_it_sends
  const c = crypto.createCipheriv('aes-256-gcm', key, iv);
  return Buffer.concat([iv, c.update(text), c.final()]);
}
const label = os.hostname();
https.request({ host: 'registry.npmjs.org', path: '/my-cli/latest' }).end();
module.exports = { seal, label };
