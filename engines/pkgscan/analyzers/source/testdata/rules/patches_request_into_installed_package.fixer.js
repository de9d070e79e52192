// A postinstall fixer that patches a dependency's import path: no request spliced in.
const fs = require('fs');
// ok: patches_request_into_installed_package
const file = require.resolve('some-lib/dist/index.js');
fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("require('fs/promises')", "require('fs').promises"));
