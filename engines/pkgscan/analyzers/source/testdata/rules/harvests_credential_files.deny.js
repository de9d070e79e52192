// A dev server's defaults: files it refuses to serve, and a reader for the files it does serve.
const fs = require('fs');
const defaults = {
  fs: {
    strict: true,
    // ok: harvests_credential_files
    deny: ['.env', '.env.*', '*.{crt,pem,key}', '.npmrc', '.yarnrc.yml', '**/.git/**'],
  },
};
function serve(file) {
  return fs.readFileSync(file);
}
module.exports = { defaults, serve };
