const https = require('https');
// ruleid: discord_webhook
const HOOK = { host: 'discord.com', path: '/api/webhooks/1199427730015846470/k9Qz-someHookTokenText_2xVb7Lm' };
// ok: discord_webhook
const DOCS = { host: 'discord.com', path: '/developers/docs/resources/webhook' };
https.request({ ...HOOK, method: 'POST' });
