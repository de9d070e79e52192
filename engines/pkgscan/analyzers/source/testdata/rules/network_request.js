// ruleid: network_request
https.get('https://example.org/data.json', onResponse);
// ok: network_request
const value = cache.get('key');
const ax = require('axios');
// ruleid: network_request
const c = ax.create({ baseURL: 'https://api.example.com' });
