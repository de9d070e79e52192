async function refresh (client, refreshToken) {
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    // ok: renames_tokens_and_keys
    client_secret: client.clientSecret
  })
  return fetch(client.tokenEndpoint, { method: 'POST', body })
}
