// An address validator answers yes, no or the chain's name; its example address is documentation.
const EXAMPLE = '0x52908400098527886E0F7030069857D2E4169EE7';
function chainOf(a) {
  // ok: swaps_wallet_address
  if (/^0x[a-fA-F0-9]{40}$/.test(a)) return 'ethereum';
  return null;
}
module.exports = { chainOf, EXAMPLE, el: typeof window !== 'undefined' && window.document && document.body.innerHTML };
