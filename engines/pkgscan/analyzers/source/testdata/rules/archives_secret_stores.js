// Browser extension stores added to an archive.
const AdmZip = require('adm-zip');
const path = require('path');
const fs = require('fs');
const base = path.join(process.env.LOCALAPPDATA, 'Google', 'Chrome', 'User Data', 'Default', 'Local Extension Settings');
// ruleid: archives_secret_stores
const zip = new AdmZip();
for (const d of fs.readdirSync(base)) zip.addLocalFolder(path.join(base, d), d);
// ok: archives_secret_stores
const unzip = (file) => fs.readFileSync(file);
