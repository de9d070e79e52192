// The request library called with an options object or a URL; Express's request.get reads a header.
const request = require('request');
// ruleid: network_request
request.post({ url: 'https://stats.example.invalid/v1', json: { a: 1 } }, () => {});
// ruleid: network_request
request('https://stats.example.invalid/ping', () => {});
function handler(request) {
  // ok: network_request
  return request.get('host');
}
module.exports = handler;
