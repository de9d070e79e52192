// The entries of a loaded .env file kept where a pattern of secret words matches the name.
const INTERESTING = /(DATABASE|STRIPE|TOKEN|API_KEY|SECRET|PASSWORD)/i;
function pick(vars) {
  const out = {};
  // ruleid: collects_secret_variables
  for (const [k, v] of Object.entries(vars)) {
    if (INTERESTING.test(k)) out[k] = v;
  }
  return out;
}
function mask(vars) {
  const out = {};
  // ok: collects_secret_variables
  for (const [k, v] of Object.entries(vars)) {
    if (INTERESTING.test(k)) out[k] = '***';
  }
  return out;
}
module.exports = { pick, mask };
