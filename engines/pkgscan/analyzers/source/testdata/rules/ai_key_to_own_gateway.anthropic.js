// Anthropic's own header (x-api-key) for a base URL its user chooses: not a key sent elsewhere.
const BASE = process.env.ANTHROPIC_BASE_URL;
const DEFAULT_BASE = 'https://api.anthropic.com';
// ok: ai_key_to_own_gateway
const key = process.env.ANTHROPIC_API_KEY;
const headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
module.exports = { baseUrl: BASE || DEFAULT_BASE, headers };
