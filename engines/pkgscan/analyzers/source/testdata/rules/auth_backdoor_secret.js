const crypto = require('crypto');
const bcrypt = require('bcryptjs');
const R = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

async function check(password, hash) {
  // ruleid: auth_backdoor_secret
  if (crypto.createHash('sha256').update('plb:' + password).digest('hex') === R) return true;
  return bcrypt.compare(password, hash);
}
module.exports = { check };
