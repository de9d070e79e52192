const os = require('os');
const path = require('path');
// ruleid: reads_credential_files
const firebase = path.join(os.homedir(), '.config', 'configstore', 'firebase-tools.json');
// ruleid: reads_credential_files
const supabase = path.join(os.homedir(), '.supabase', 'access-token');
// ok: reads_credential_files
const local = path.join(process.cwd(), 'firebase.json');
module.exports = { firebase, supabase, local };
