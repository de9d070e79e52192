// a tracing wrapper: the event's headers, scrubbed, to the endpoint its user configured
const https = require('https');
function trace(event, endpoint) {
  const headers = {};
  for (const [k, v] of Object.entries(event.headers || {})) headers[k] = /authorization|cookie|token/i.test(k) ? '[redacted]' : v;
  // ok: sends_invocation_event
  const span = { route: event.rawPath, headers };
  https.request(new URL(endpoint), { method: 'POST' }).end(JSON.stringify(span));
}
module.exports = { trace };
