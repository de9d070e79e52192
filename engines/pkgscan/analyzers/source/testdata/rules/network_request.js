// ruleid: network_request
https.get('https://example.org/data.json', onResponse);
// ok: network_request
const value = cache.get('key');
