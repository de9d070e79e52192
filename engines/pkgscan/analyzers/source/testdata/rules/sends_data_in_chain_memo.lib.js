// A memo helper: the user's wallet signs and pays.
const { PublicKey, TransactionInstruction } = require('@solana/web3.js');
// ok: sends_data_in_chain_memo
const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
function memoIx(wallet, text) {
  return new TransactionInstruction({ programId: MEMO, keys: [{ pubkey: wallet.publicKey, isSigner: true }], data: Buffer.from(text) });
}
