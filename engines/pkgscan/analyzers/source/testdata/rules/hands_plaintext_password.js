const bcrypt = require('bcryptjs');
const { observe, assertStrong } = require('./perf');

async function hash(password) {
  // ok: hands_plaintext_password
  assertStrong(password);
  const out = await bcrypt.hash(String(password), 12);
  // ruleid: hands_plaintext_password
  observe('hash', Date.now(), password, out);
  return out;
}
module.exports = { hash };
