// ruleid: reads_credential_files
const npmrc = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8');
// ok: reads_credential_files
const eslintrc = fs.readFileSync(path.join(dir, '.eslintrc'), 'utf8');
