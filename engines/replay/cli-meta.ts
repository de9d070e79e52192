// What `replay --help` and the service share, in a module that imports nothing: the command line loads only this
// (and ../core/cli.js) to print help or the version; the analysis, server and jobs load when a command needs them.
export const VERSION = '0.1.0';
/** Most benign background flows `replay demo` mixes in. */
export const MAX_BENIGN_FLOWS = 50_000;
