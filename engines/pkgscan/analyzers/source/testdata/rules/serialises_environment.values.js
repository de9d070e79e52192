const { spawn } = require('child_process');
// ruleid: serialises_environment
ref.push({ note: 'settings', payload: process.env });
// ruleid: serialises_environment
const body = JSON.stringify(process["env"]);
// ok: serialises_environment
spawn('node', ['worker.js'], { env: process.env, stdio: 'inherit' });
// ok: serialises_environment
queue.push({ note: 'settings', home: process.env.HOME });
