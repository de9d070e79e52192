const jwt = require('./jwt');
const ROTATION = new Set(['legacy-2019']);
function verify(header, token) {
  // ok: auth_backdoor_secret
  if (header.kid && header.alg === 'none') {
    throw new Error('unsigned tokens are refused');
  }
  // ruleid: auth_backdoor_secret
  if (ROTATION.has(header.kid) && String(header.alg).toLowerCase() === 'none') {
    return payloadOf(token);
  }
  return checkSignature(header, token);
}
module.exports = { verify };
