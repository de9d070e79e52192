// A wallet library keeps the key under its own name and sends signed transactions.
async function send(wallet, provider, tx) {
  const signed = await wallet.signTransaction(tx);
  // ok: sends_wallet_secret
  const account = { address: wallet.address, privateKey: wallet.privateKey, mnemonic: wallet.mnemonic };
  return fetch(provider.url, { method: 'POST', body: JSON.stringify({ method: 'eth_sendRawTransaction', params: [signed] }) });
}
