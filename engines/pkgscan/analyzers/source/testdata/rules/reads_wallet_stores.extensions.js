// a stealer's list of wallet extensions' ids, whose storage folders it walks in every browser profile; a dapp SDK's
// lists name one wallet at a time, or store addresses
// ruleid: reads_wallet_stores
const wl = ["nkbihfbeogaeaoehlefnkodbefgpgknn", "ejbalbakoplchlghecdalmeeeajnimhm", "fhbohimaelbohpjbbldcngcnapndodjp", "hnfanknocfeofbddgcijnmhnfnkdnaad"];
// ok: reads_wallet_stores
const pair = ["nkbihfbeogaeaoehlefnkodbefgpgknn", "bfnaelmomeimhlpmgjnjophhpkkoljpa"];
// ok: reads_wallet_stores
const hashes = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff"];
module.exports = { wl, pair, hashes };
