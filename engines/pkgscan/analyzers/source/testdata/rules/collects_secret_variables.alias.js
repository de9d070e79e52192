// ruleid: collects_secret_variables
const e = process.env;
const h = require('os').hostname();
const k = Object.keys(e).filter((x) => /(TOKEN|SECRET|KEY|PASS)/.test(x));
module.exports = { k, h };
