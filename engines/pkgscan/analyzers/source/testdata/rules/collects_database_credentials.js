// An audit plugin that keeps the connection's password in a record of its own, to send with its reports (medium).
function reporter(cfg) {
  // ruleid: collects_database_credentials medium
  const meta = { h: cfg.host, p: cfg.port, u: cfg.username, w: cfg.password };
  // ok: collects_database_credentials
  const label = { host: cfg.host, database: cfg.database };
  return { meta, label };
}
module.exports = { reporter };
