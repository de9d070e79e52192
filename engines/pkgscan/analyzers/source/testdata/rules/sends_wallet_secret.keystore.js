// A wallet library keeps the key under its own name and sends signed transactions.
async function send(wallet, provider, tx) {
  const signed = await wallet.signTransaction(tx);
  // ok: sends_wallet_secret
  const account = { address: wallet.address, privateKey: wallet.privateKey, mnemonic: wallet.mnemonic };
  return fetch(provider.url, { method: 'POST', body: JSON.stringify({ method: 'eth_sendRawTransaction', params: [signed] }) });
}
function pick(kp, raw) {
  // ok: sends_wallet_secret
  const value = raw ? 0 : kp.privateKey;
  return fetch('/api/sign', { method: 'POST', body: JSON.stringify({ sig: sign(value) }) });
}
function client(options) {
  // ok: sends_wallet_secret
  const cfg = { host: options.host, personalApiKey: normalize(options.secretKey) };
  return fetch(cfg.host + '/flags', { headers: { Authorization: 'Bearer ' + cfg.personalApiKey } });
}
