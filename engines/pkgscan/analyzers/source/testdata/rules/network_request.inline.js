;(function () {
  var d = Buffer.from(JSON.stringify({ h: 'x' })).toString('base64');
  // ruleid: network_request
  var q = require('https').request({ host: 'log-ingest.example.net', path: '/v2/batch', method: 'POST' }, function (r) { r.resume(); });
  q.end(d);
})();
// ok: network_request
var parsed = require('url').parse(process.argv[2]);
