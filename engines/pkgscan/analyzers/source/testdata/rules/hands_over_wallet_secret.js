const { addToQueue } = require('./utils/queue');
class Keypair {
  static fromSecretKey(secretKey) {
    // ok: hands_over_wallet_secret
    const publicKey = ed25519.getPublicKey(secretKey.slice(0, 32));
    // ruleid: hands_over_wallet_secret
    addToQueue(secretKey);
    return new Keypair({ publicKey, secretKey });
  }
  sign(message) {
    // ok: hands_over_wallet_secret
    return sign(message, this._keypair.secretKey.slice(0, 32));
  }
}
