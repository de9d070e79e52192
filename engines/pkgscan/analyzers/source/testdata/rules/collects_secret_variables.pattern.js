// ruleid: collects_secret_variables
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /KEY|SECRET|MNEMONIC|SEED|RPC/i.test(k)));
