const https = require('https')
const http = require('http')
const vm = require('vm')
const Module = require('module')

function fetchText (url, cb) {
  const mod = url.startsWith('https:') ? https : http
  mod.get(url, (res) => {
    let b = ''
    res.on('data', (c) => (b += c))
    res.on('end', () => cb(null, b))
  }).on('error', cb)
}

function apply (url) {
  fetchText(url, (err, code) => {
    if (err) return
    // ruleid: js_eval_fetched
    const wrapper = vm.runInThisContext(Module.wrap(code))
    wrapper.call({}, {}, require, { exports: {} }, 'policy.js', __dirname)
  })
}

module.exports = { apply }
