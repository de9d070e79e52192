function record(request) {
  // ruleid: reads_request_credentials
  const h = request.headers;
  // ok: reads_request_credentials
  const host = h.host;
  return { host, auth: h.authorization };
}
module.exports = { record };
