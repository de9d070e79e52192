// a pool probe's usage text and tests name placeholders and documentation hosts; a pool address is a pool
function usage() {
  // ok: cryptominer
  console.log('usage: stratum-probe <stratum+tcp://host:port | stratum+ssl://host:port>...');
}
// ok: cryptominer
const fixture = 'stratum+ssl://pool.example.org:443';
// ruleid: cryptominer
const pool = 'stratum+ssl://xmr.cryptoflux-mine.com:443';
module.exports = { usage, fixture, pool };
function share(ws, d) {
  // ruleid: cryptominer
  ws.send(JSON.stringify({ type: 'submit', params: { job_id: d.job_id, nonce: d.nonce, result: d.result } }));
}
function login(sock, addr) {
  // ok: cryptominer
  sock.write(JSON.stringify({ id: 1, method: 'login', params: { login: addr, pass: 'probe' } }) + '\n');
}
module.exports.share = share;
module.exports.login = login;
