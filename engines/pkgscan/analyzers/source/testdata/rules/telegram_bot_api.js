// ruleid: telegram_bot_api medium
const api = 'https://api.telegram.org/bot' + token + '/sendMessage';
// ok: telegram_bot_api
const site = 'https://telegram.org/apps';
