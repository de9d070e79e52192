// An encoder: call data from its caller's recipient and amount.
const TRANSFER = '0xa9059cbb';
export function encodeTransfer(to, amount) {
  // ok: rewrites_transfer_calldata
  return TRANSFER + to.slice(2).padStart(64, '0') + amount.toString(16).padStart(64, '0');
}
