const fs = require('fs');
const os = require('os');
const path = require('path');
// ruleid: hidden_credential_path
const P = Buffer.from('LmF3cy9jcmVkZW50aWFscw==', 'base64').toString();
const data = fs.readFileSync(path.join(os.homedir(), P), 'utf8');
// ok: hidden_credential_path
const FONTS = Buffer.from('LmNvbmZpZy9mb250Y29uZmlnL2ZvbnRzLmNvbmY=', 'base64').toString();
