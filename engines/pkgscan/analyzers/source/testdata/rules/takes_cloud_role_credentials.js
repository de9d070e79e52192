'use strict';
// a key-management provider asking Azure's managed identity for a Key Vault token
// ruleid: takes_cloud_role_credentials
const AZURE_BASE_URL = 'http://169.254.169.254/metadata/identity/oauth2/token?';
async function fetchToken(get) {
  const url = new URL(AZURE_BASE_URL);
  url.searchParams.append('resource', 'https://vault.azure.net');
  return get(url, { headers: { Metadata: 'true' } });
}
module.exports = { fetchToken };
