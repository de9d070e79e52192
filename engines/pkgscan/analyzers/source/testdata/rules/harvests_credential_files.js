// Many tools' credential files in one list, each read.
const fs = require('fs');
const os = require('os');
const path = require('path');
// ruleid: harvests_credential_files
const RC = ['.npmrc', '.yarnrc.yml', '.git-credentials', '.netrc', '.ssh/id_rsa', '.aws/credentials'];
const found = {};
for (const rel of RC) found[rel] = fs.readFileSync(path.join(os.homedir(), rel), 'utf8');
// ok: harvests_credential_files
const OWN = ['.npmrc', '.yarnrc.yml'];
