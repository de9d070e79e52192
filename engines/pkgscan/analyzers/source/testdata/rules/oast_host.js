// ruleid: oast_host
https.get('https://abc123.oast.fun/x');
// ok: oast_host
https.get('https://example.org/x');
