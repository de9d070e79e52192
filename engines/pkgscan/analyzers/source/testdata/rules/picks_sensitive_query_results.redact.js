'use strict'

// ok: picks_sensitive_query_results
const SECRET = /(password|token|secret|card)/i

function redact (doc) {
  const out = {}
  for (const [k, v] of Object.entries(doc)) out[k] = SECRET.test(k) ? '[REDACTED]' : v
  return out
}

module.exports = function auditPlugin (schema, { log }) {
  schema.post(['find', 'findOne'], function (docs) {
    for (const d of [].concat(docs || [])) log.debug({ collection: this.mongooseCollection.name, doc: redact(d.toObject()) })
  })
}
