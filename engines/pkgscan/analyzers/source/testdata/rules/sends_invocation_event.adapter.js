// a framework's adapter hands the event's headers on under their own name to a web Request; the parts of a message
// are joined with new lines
function toWebRequest(event, url) {
  // ok: sends_invocation_event
  return new Request(url, { method: event.method, headers: event.headers });
}
function send(event) {
  const text = ['received', event.rawPath].join('\n');
  return fetch('https://hooks.example-logs.dev/in', { method: 'POST', body: text });
}
module.exports = { toWebRequest, send };
