// one record of three services' secret variables; a client's options with its own service's key, and a provider list
// giving each provider its own object, are not such a record
const event = {
  // ruleid: collects_secret_variables
  deployment: { NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET, GITHUB_SECRET: process.env.GITHUB_SECRET, STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY },
};
// ok: collects_secret_variables
const client = { apiKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET, account: process.env.STRIPE_ACCOUNT_TOKEN };
const providers = [
  // ok: collects_secret_variables
  { id: 'github', clientSecret: process.env.GITHUB_SECRET },
  // ok: collects_secret_variables
  { id: 'google', clientSecret: process.env.GOOGLE_CLIENT_SECRET },
];
// ruleid: collects_secret_variables
const meta = {
  gh: process.env.GITHUB_TOKEN || process.env.GH_TOKEN, npm: process.env.NPM_TOKEN ?? process.env.NODE_AUTH_TOKEN, aws: [process.env.AWS_ACCESS_KEY_ID, process.env.AWS_SECRET_ACCESS_KEY],
};
module.exports = { event, client, providers, meta };
