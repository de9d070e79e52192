const https = require('https');
const fs = require('fs');
https.get(URL, (r) => {
  // ruleid: js_requires_download
  const w = fs.createWriteStream(addon); r.pipe(w); w.on('finish', () => require(addon));
});
fetch(URL).then((r) => r.arrayBuffer()).then((b) => {
  // ruleid: js_requires_download
  fs.writeFileSync(lib, Buffer.from(b)); process.dlopen(module, lib);
});
// ok: js_requires_download
fs.writeFileSync(cache, JSON.stringify(index)); const plugin = require(pluginPath);
