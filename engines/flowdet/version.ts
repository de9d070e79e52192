// The flow detector's version, reported by --version and GET /health.
export const VERSION = '0.1.0';
