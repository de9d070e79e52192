// Content-Security-Policy strings: the strict one for the UI's pages, and a no-content one for API answers.

/** The UI: its own scripts only, no inline script, no plugins, no framing, no form posts, and fetches to the gateway only. */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** API answers are data, never documents: nothing may load from them and nobody may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
