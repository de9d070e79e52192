// Node's net module connecting to a bare public address; a local service is not one.
const net = require('net');
// ruleid: url_with_ip_address
const s = net.connect(8443, '198.51.100.214', () => s.write(info));
// ok: url_with_ip_address
const local = net.createConnection(6379, '127.0.0.1');
