const m = ['ht', 'tps'].join('');
// ruleid: network_request
const r = require(m).request({ hostname: 'collector.example', path: '/seed', method: 'POST' });
// ok: network_request
const cfg = require(name).get({ key: 'x' });

async function send(url, payload) {
  // ruleid: network_request
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
}
