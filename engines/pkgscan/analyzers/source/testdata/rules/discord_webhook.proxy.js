// a webhook's path behind a host of its own; a Slack incoming webhook is another shape
// ruleid: discord_webhook
const W = 'https://hooks.collab-notify.app/api/webhooks/1204417783350210610/Qm3x9kVt_2aLr0fYpB7sWzN4cHdE1uJ6gTiKoP5yXvRmA8nSbF';
// ok: discord_webhook
const S = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
module.exports = { S, W };
