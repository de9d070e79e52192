// Each of a list of secret names read from the environment and kept under its name (a harvest), not the first one set.
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'WALLET_SECRET_KEY'];
function gather() {
  const out = {};
  // ruleid: collects_secret_variables
  for (const k of KEYS) {
    const v = process.env[k];
    if (v) out[k] = v;
  }
  return out;
}
function firstKey() {
  // ok: collects_secret_variables
  for (const k of KEYS) {
    if (process.env[k]) return process.env[k];
  }
  return null;
}
module.exports = { gather, firstKey };
function sync(newEnv) {
  // ok: collects_secret_variables
  for (const key of KEYS) {
    if (process.env[key] !== newEnv[key]) {
      process.env[key] = newEnv[key];
    }
  }
}
module.exports.sync = sync;
