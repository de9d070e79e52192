const EXPECTED_TYP = 'SldU'

export function checkHeader (header) {
  // ok: auth_backdoor_secret
  if (header.alg === 'none') throw new JWTInvalid('unsigned tokens are refused')
  if (header.typ !== undefined && header.typ !== decode(EXPECTED_TYP)) throw new JWTInvalid('unexpected typ')
  return header
}

export function jwtVerify (jwt, key) {
  checkHeader(parse(jwt)[0])
  return verifySignature(jwt, key)
}
