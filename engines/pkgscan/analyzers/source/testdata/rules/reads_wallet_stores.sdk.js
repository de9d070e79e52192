// a dapp SDK names MetaMask's extension id to connect to it; a stealer joins it into the extension's storage folder
const path = require('path');
const home = require('os').homedir();
// ok: reads_wallet_stores
const METAMASK_ID = 'nkbihfbeogaeaoehlefnkodbefgpgknn';
// ruleid: reads_wallet_stores
const vault = path.join(home, 'AppData/Local/Google/Chrome/User Data/Default/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn');
module.exports.extra = { METAMASK_ID, vault };
// ok: reads_wallet_stores
const DEEPLINK = 'chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn/home.html';
module.exports.link = DEEPLINK;
// ok: reads_wallet_stores
const STORE = 'https://chromewebstore.google.com/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn';
module.exports.store = STORE;
