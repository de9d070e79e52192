const https = require('https');
https.get(url, (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  // ruleid: js_eval_fetched
  res.on('end', () => eval(body));
});
async function load(u) {
  const r = await fetch(u);
  const text = await r.text();
  // ruleid: js_eval_fetched
  return new Function('require', text)(require);
}
async function load2(u) {
  const { data } = await axios.get(u);
  // ruleid: js_eval_fetched
  vm.runInThisContext(data);
}
// ok: js_eval_fetched
eval(expression);
class Client {
  // a debugging helper that evaluates what its caller passes, in a file that also opens a socket: not fetched code
  _eval(script) {
    // ok: js_eval_fetched
    return eval(script);
  }
}
this.ws = new WebSocketManager(this);
