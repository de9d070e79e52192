// ruleid: discord_webhook
const hook = 'https://discord.com/api/webhooks/123/abc';
// ok: discord_webhook
const invite = 'https://discord.com/invite/example';
