// a flood through an HTTP library: each request a different browser from a search engine
const https = require('https');
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)'];
const refs = ['https://www.google.com/', 'https://www.bing.com/'];
const rnd = (a) => a[Math.floor(Math.random() * a.length)];

function hit(u) {
  const req = https.request({
    host: u.hostname,
    path: u.pathname,
    headers: {
      // ruleid: floods_a_target
      'User-Agent': rnd(agents), Referer: rnd(refs),
    },
  });
  req.end();
}

function client(u, version) {
  // ok: floods_a_target
  return https.request({ host: u.hostname, headers: { 'User-Agent': `my-cli/${version}`, Referer: u.origin } });
}
module.exports = { hit, client };
