// PE dissection as a library: `dissect` and the import hash, with the result types.
export { dissect } from './dissect.js';
export { imphash, imphashTerms } from './imports.js';
export type * from './types.js';
