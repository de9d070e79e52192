// ruleid: disables_tls_verification
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
// ok: disables_tls_verification
if (process.env.NODE_TLS_REJECT_UNAUTHORIZED === '0') warn();
