const https = require('https');
const T = ['NzY0MTkzODIwNTpBQUZyOHZU', 'cVpYMk5lVGQ1YmNaUGtvWDdz'];
const post = (text) => {
  const req = https.request({
    host: 'api.telegram.org',
    // ruleid: telegram_bot_api
    path: `/bot${Buffer.from(T.join(''), 'base64').toString()}/sendMessage`,
    method: 'POST',
  });
  req.end(JSON.stringify({ chat_id: '-1001', text }));
};
