const crypto = require('crypto');
// downloads the login helper binary and checks it
function verifyDownload(buf, expected) {
  // ok: auth_backdoor_secret
  return crypto.createHash('sha256').update(buf).digest('hex') === expected;
}
module.exports = { verifyDownload };
