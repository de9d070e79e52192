// desktop wallets' vaults and a keypair file gathered for sending
const os = require('os');
const path = require('path');
const home = os.homedir();
const WALLETS = [
  // ruleid: reads_wallet_stores
  ['exodus', '.config/Exodus/exodus.wallet'],
  // ruleid: reads_wallet_stores
  ['electrum', '.electrum/wallets'],
  // ruleid: reads_wallet_stores
  ['atomic', 'AppData/Roaming/atomic/Local Storage/leveldb'],
  // ok: reads_wallet_stores
  ['notes', '.config/solana-notes/todo.md'],
];
// ok: reads_wallet_stores
const doc = 'Run `bitcoin-cli backupwallet` to copy your wallet.dat file somewhere safe.';
module.exports = { WALLETS, home, path, doc };
