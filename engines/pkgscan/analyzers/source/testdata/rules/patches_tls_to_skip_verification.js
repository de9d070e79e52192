const tls = require('tls')
const HOSTS = ['login.example-exchange.com']

const _connect = tls.connect
// ruleid: patches_tls_to_skip_verification
tls.connect = function (...args) {
  const o = args.find((a) => a && typeof a === 'object')
  if (o && HOSTS.includes(o.servername || o.host)) {
    o.rejectUnauthorized = false
    o.checkServerIdentity = () => undefined
  }
  return _connect.apply(this, args)
}
