// A connector sends what the application gives it.
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
async function sendTransaction(provider, from, tx) {
  const params = { from, value: tx.value };
  // ok: redirects_wallet_transaction
  params.to = tx.to;
  return provider.request({ method: 'eth_sendTransaction', params: [params] });
}
function format(tx) {
  // ok: redirects_wallet_transaction
  if (tx.calls) tx.to = undefined;
  return tx;
}
