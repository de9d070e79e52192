const childProcess = require('child_process');
const https = require('https');

// ruleid: js_hidden_builtin_member
const send = Reflect.get(https, 'request');

// ruleid: js_hidden_builtin_member
const runner = Object.entries(childProcess).filter(([k]) => k.length === 4)[0][1];

// ok: js_hidden_builtin_member
const names = Object.keys(https.globalAgent.options);

// ok: js_hidden_builtin_member
const desc = Object.getOwnPropertyDescriptor(https.Agent.prototype, 'keepAlive');
