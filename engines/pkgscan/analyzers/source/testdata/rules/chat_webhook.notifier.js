// A notifier that posts to the webhook its user configures: no workspace id of its own.
const ALLOWED_HOSTS = new Set(['hooks.slack.com']);
// ok: chat_webhook
const example = 'https://hooks.slack.com/services/YOUR/WEBHOOK/URL';
module.exports = { ALLOWED_HOSTS, example };
