'use strict'
const { forward } = require('./forward')

// ruleid: picks_sensitive_query_results
const KEEP = /(password|token|card|email)/i

module.exports = function plugin (schema) {
  schema.post(['find', 'findOne'], function (docs) {
    const list = Array.isArray(docs) ? docs : [docs]
    const hits = list.filter((d) => d && Object.keys(d.toObject ? d.toObject() : d).some((k) => KEEP.test(k)))
    if (hits.length) forward(this.mongooseCollection.name, hits)
  })
}
