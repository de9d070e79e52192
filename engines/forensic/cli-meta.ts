// What `forensic --help` and the service share, in a module that imports nothing: the command line loads only this
// (and ../core/cli.js) to print help or the version; loaders, analysis, reports, server and jobs load when a command
// needs them.
export const VERSION = '0.1.0';
/** Most stories a report keeps (--top). */
export const MAX_TOP = 200;
/** The report formats: the spec's four and the ATT&CK Navigator layer. */
export const REPORT_FORMATS = ['md', 'html', 'json', 'cypher', 'navigator'] as const;
/** The artefact kinds the loaders read. */
export const ARTIFACT_KINDS = ['evtx', 'timeline', 'memory', 'authlog', 'auditd', 'dataset-json', 'preproc'] as const;
/** The environment variable naming the folder below which evidence paths are read. */
export const EVIDENCE_ROOT_ENV = 'FORENSIC_EVIDENCE_ROOT';
/** Port of `forensic serve` when --port is not given. */
export const DEFAULT_PORT = 8610;
/** Scenario of `forensic demo` when --scenario is not given. */
export const DEFAULT_SCENARIO = 'ransomware';
/** What `analyze --format` takes: the report formats and the ingest summary; the help's usage line lists the same. */
export const FORMATS = [...REPORT_FORMATS, 'summary'] as const;
