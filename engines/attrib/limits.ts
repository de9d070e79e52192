// The service's version, limits and defaults: constants that the command line's help, the HTTP API and the engines
// share, in a module that imports nothing (so `attrib --help` reads them without loading an engine).
export const VERSION = '0.1.0';

/** Largest request body the HTTP API reads: the spec's 1 MB, read as 10^6 bytes since it writes MiB where it means 2^20. */
export const MAX_BODY_BYTES = 1_000_000;

/** The spec's limit on one submitted report text (POST /extract and the commands). */
export const MAX_TEXT_CHARS = 500_000;

/** Similarity at which two reports join one cluster. */
export const DEFAULT_CLUSTER_THRESHOLD = 0.3;

/** Groups the attribution shortlist holds. */
export const DEFAULT_SHORTLIST = 8;

/** Probability the top label needs before extraction reports it (the spec's training default). */
export const DEFAULT_THRESHOLD = 0.8;
