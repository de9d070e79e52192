function runMeta() {
  const e = process.env;
  // ruleid: collects_secret_variables
  const keep = /(TOKEN|SECRET|PASSWORD|_KEY|AWS_)/i;
  return Object.keys(e).filter((k) => keep.test(k)).reduce((o, k) => { o[k] = e[k]; return o; }, {});
}
function publicVars() {
  const prefix = /^PUBLIC_/;
  // ok: collects_secret_variables
  return Object.keys(process.env).filter((k) => prefix.test(k));
}
