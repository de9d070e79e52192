// an HTTP CONNECT proxy: it listens for its own clients and connects where they ask
const http = require('http');
const net = require('net');
const WebSocket = require('ws');

const server = http.createServer();
server.on('connect', (req, client) => {
  // ok: relays_connections_for_server
  const [host, port] = req.url.split(':');
  const upstream = net.connect({ host, port: Number(port) }, () => client.pipe(upstream).pipe(client));
});
const status = new WebSocket('wss://status.example-proxy.org/feed');
server.listen(8080);
module.exports = { server, status };
