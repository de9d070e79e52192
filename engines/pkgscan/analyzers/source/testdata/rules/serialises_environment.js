// ruleid: serialises_environment
https.request(options).end(JSON.stringify(process.env));
// ok: serialises_environment
const home = JSON.stringify(process.env.HOME);
