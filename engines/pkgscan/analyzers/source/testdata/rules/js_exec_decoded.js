const cp = require('child_process');
const { execSync: run } = require('node:child_process');
// ruleid: js_exec_decoded
cp.exec(Buffer.from(payload, 'base64').toString());
// ruleid: js_exec_decoded
require('child_process').spawn('sh', ['-c', atob(blob)]);
const command = Buffer.from(hexText, 'hex').toString();
// ruleid: js_exec_decoded
run(command);
// ok: js_exec_decoded
cp.exec(`git rev-parse ${ref}`);
const pattern = /^v(\d+)/;
// ok: js_exec_decoded
pattern.exec(Buffer.from(tag, 'base64').toString());
// ok: js_exec_decoded
cp.spawn('powershell', ['-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')]);
