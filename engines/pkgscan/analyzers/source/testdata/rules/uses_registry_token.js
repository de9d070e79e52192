// ruleid: uses_registry_token
const token = process.env.NPM_TOKEN;
// ok: uses_registry_token
const sha = process.env.GITHUB_SHA;
