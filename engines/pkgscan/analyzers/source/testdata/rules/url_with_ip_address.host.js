// A request's or socket's host given as a bare public address; private addresses and public resolvers are not.
const http = require('http');
// ruleid: url_with_ip_address
const req = http.request({ host: '198.51.100.12', port: 8080, path: '/w', method: 'POST' });
// ok: url_with_ip_address
const local = http.request({ host: '127.0.0.1', port: 8080 });
// ok: url_with_ip_address
const check = { hostname: '8.8.8.8', port: 53 };
// ruleid: url_with_ip_address
const HELPER_HOST = '185.212.44.9';
// ok: url_with_ip_address
const MULTICAST_IP_ALL_HOST = '224.0.0.1';
module.exports = { req, local, check, HELPER_HOST, MULTICAST_IP_ALL_HOST };
