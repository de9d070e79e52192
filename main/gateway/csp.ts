// Content-Security-Policy strings: the strict one for the UI's pages, and a no-content one for API answers.

/** The UI: its own scripts only, no inline script, no plugins, no framing, no form posts, and fetches to the gateway only (one policy with the standalone pages'). */
export { RENDERER_CSP } from '../../engines/core/http/standalone-ui.js';

/** API answers are data, never documents: nothing may load from them and nobody may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
