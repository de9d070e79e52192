// A native addon fetched, saved and loaded into a fresh exports object.
const https = require('https');
const fs = require('fs');
https.get(BINARY_URL, (res) => {
  const parts = [];
  res.on('data', (c) => parts.push(c));
  res.on('end', () => {
    // ruleid: js_requires_download
    fs.writeFileSync(file, Buffer.concat(parts));
    process.dlopen({ exports: {} }, file);
  });
});
