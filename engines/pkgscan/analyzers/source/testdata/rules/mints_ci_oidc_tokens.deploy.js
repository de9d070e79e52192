// A deploy action: one token, for the one cloud it deploys to.
async function token() {
  // ok: mints_ci_oidc_tokens
  const url = process.env.ACTIONS_ID_TOKEN_REQUEST_URL + '&audience=sts.amazonaws.com';
  const res = await fetch(url, { headers: { Authorization: 'bearer ' + process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN } });
  return (await res.json()).value;
}
