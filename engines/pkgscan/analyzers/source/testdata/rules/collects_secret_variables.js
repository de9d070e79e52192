// Variables picked out by a pattern of secret words.
// ruleid: collects_secret_variables
const found = Object.keys(process.env).filter((k) => /TOKEN|SECRET|API_KEY/.test(k));
// ok: collects_secret_variables
const mine = Object.keys(process.env).filter((k) => k.startsWith('MYAPP_'));
