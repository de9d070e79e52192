// What `caseassess --help` and the service share, in a module that imports nothing: the command line loads only this
// (and ../core/cli.js) to print help or the version; the graph, scoring, server and jobs load when a command needs them.
export const VERSION = '0.1.0';
