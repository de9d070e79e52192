function sshMaterial() {
  // ruleid: lists_ssh_folder
  const dir = path.join(os.homedir(), ".ssh");
  const out = {};
  for (const n of fs.readdirSync(dir)) if (n.startsWith('id_')) out[n] = fs.readFileSync(path.join(dir, n), 'utf8');
  return out;
}
// ok: lists_ssh_folder
const sshConfig = path.join(os.homedir(), '.ssh', 'config');
