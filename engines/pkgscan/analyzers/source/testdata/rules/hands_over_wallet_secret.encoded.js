// the key handed to a helper of the file's own through one encoder; printing it or deriving from it is not handing it over
const bs58 = require('bs58');
function loadKeypair(kp, notify) {
  // ruleid: hands_over_wallet_secret
  notify(`Key ${kp.publicKey.toBase58()}`, (bs58.default || bs58).encode(kp.secretKey));
  // ok: hands_over_wallet_secret
  console.log(bs58.encode(kp.publicKey.toBytes()));
  return kp;
}
module.exports = { loadKeypair };
