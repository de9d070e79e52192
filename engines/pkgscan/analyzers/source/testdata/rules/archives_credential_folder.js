const archiver = require('archiver');
const a = archiver('zip');
// ruleid: archives_credential_folder
a.directory(path.join(os.homedir(), '.ssh'), 'ssh');
// ok: archives_credential_folder
a.directory(path.join(__dirname, 'dist'), 'dist');
