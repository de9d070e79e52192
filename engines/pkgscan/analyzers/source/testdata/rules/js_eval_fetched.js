const https = require('https');
https.get(url, (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  // ruleid: js_eval_fetched
  res.on('end', () => eval(body));
});
// ok: js_eval_fetched
eval(expression);
