// A wallet library: validates addresses and wraps the provider for logging; it lists no addresses to swap in.
const ADDR = /^0x[a-fA-F0-9]{40}$/;
const DONATE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export function wrap(provider) {
  const inner = provider.request.bind(provider);
  // ok: wallet_traffic_hook
  provider.request = async (args) => {
    if (args.method === 'eth_sendTransaction' && !ADDR.test(args.params[0].to)) throw new Error('bad address');
    return inner(args);
  };
  return provider;
}
export const isAddress = (a) => typeof window !== 'undefined' && ADDR.test(a);
