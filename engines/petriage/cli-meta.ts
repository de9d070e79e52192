// What `petriage --help` and `--version` need: the help texts and the default port, with the version and the default
// benign corpus size from ./resources.js. The command line loads this to answer them; the dissector, models, corpora,
// server and store load when a command runs (./cli-commands.js).
import { DEFAULT_BENIGN, VERSION } from './resources.js';

export const DEFAULT_PORT = 8712;

export const HELP: Record<string, string> = {
  main: `petriage ${VERSION}: static triage of PE files (parsed from bytes, never executed)

Usage:
  petriage gen-corpus [--out DIR] [--per-family N] [--seed S]
  petriage train [--corpus DIR] [--per-family N] [--seed S] [--out FILE]
  petriage train --gbdt [--vectors FILE.jsonl|csv [--label-column C] [--feature-layout L]] [--rounds N] [--per-family N] [--seed S] [-o FILE]
  petriage analyze FILE [--model FILE] [--benign DIR] [--siblings DIR] [--no-rule]
  petriage scan DIR [--model FILE] [--recursive]
  petriage serve [--host H] [--port P] [--allow-remote] [--model FILE] [--benign DIR] [--enable-docs]
  petriage demo [--seed S]
  petriage --version | --help | <command> --help

Exit codes: 0 success, 1 failure, 2 invalid arguments or input (for analyze: not a PE, over 128 MiB).`,
  'gen-corpus': `petriage gen-corpus [--out DIR] [--per-family N] [--seed S]
  Writes the synthetic corpus: valid, inert PE files in six invented families plus benign look-alikes
  (3 x N), built by the PE writer, and manifest.json (file, family, label, SHA-256). Nothing in them
  executes anything; behaviour is suggested by import names and strings only.
  --out DIR         where to write (default ./petriage-corpus; created when missing)
  --per-family N    samples per family (default 20)
  --seed S          seed (default 0); the same seed writes the same bytes`,
  train: `petriage train [--corpus DIR] [--per-family N] [--seed S] [--out FILE]
  Trains the linear demo model (vitrine-linear-1) and writes it; prints a summary with the held-out check.
  --corpus DIR      a corpus written by gen-corpus (default: generate the synthetic corpus in memory)
  --per-family N    samples per family when generating (default 20)
  --seed S          seed (default 0)
  --out FILE        model file to write (default ./petriage-model.json)

petriage train --gbdt [--vectors FILE] [--label-column C] [--feature-layout L] [--rounds N] [--per-family N] [--seed S] [-o FILE]
  Trains the gradient-boosted model (vitrine-gbdt-1): early stopping on a stratified quarter held out,
  thresholds at 0.1 % (MALICIOUS) and 1 % (SUSPICIOUS) false-positive rate on that quarter, TreeSHAP drivers.
  --vectors FILE    labelled feature vectors: .csv (header line) or JSON lines (a "features" array or named
                    fields); rows labelled -1 are skipped (EMBER's unlabelled rows). Without it the synthetic
                    corpus is featurised (--per-family N, default 20) and the family profiles are kept.
  --label-column C  label column or key (default label; values 0/1/true/false)
  --feature-layout L  the layout the vectors follow (default vitrine-pe-features-1, what petriage's featuriser
                    writes); a model of another layout (EMBER's own vectors, for instance) is written but
                    analyze refuses it
  --rounds N        boosting rounds at most (default 200)
  -o, --out FILE    model file to write (default ./petriage-model.json)`,
  analyze: `petriage analyze FILE [--model FILE] [--benign DIR] [--siblings DIR] [--no-rule]
  Prints the triage result as JSON: verdict (linear model: MALICIOUS >= 0.7, SUSPICIOUS >= 0.3; boosted
  model: at or above its 0.1 % and 1 % false-positive thresholds; else BENIGN), score,
  drivers (attributions), capabilities with ATT&CK ids and evidence, nearest known family, notes, the
  dissection, and for a non-benign verdict a candidate YARA rule validated against the benign corpus.
  Files over 128 MiB are refused before they are read.
  --model FILE      model file, vitrine-linear-1 or vitrine-gbdt-1 (default: the shipped linear demo model)
  --benign DIR      add the files in DIR to the benign corpus (default: ${DEFAULT_BENIGN.count} synthetic benign files)
  --siblings DIR    suspected same-family files, for the rule's coverage
  --no-rule         no benign corpus, no candidate rule`,
  scan: `petriage scan DIR [--model FILE] [--recursive]
  Triages every file in DIR and prints one JSON object per line: {file, status, ...}. status is ok
  (sha256, size, verdict, score, family, capabilities, signature: the first
  Authenticode signature's status or null), not_pe, too_large (over 128 MiB, not read)
  or unreadable. Symbolic links are not followed.
  --model FILE      model file (default: the shipped linear demo model)
  --recursive       descend into subdirectories`,
  serve: `petriage serve [--host H] [--port P] [--allow-remote] [--model FILE] [--benign DIR] [--enable-docs]
  Triage UI at GET / (the workstation's Triage workspace from dist/renderer, alone; build it with npm run build:renderer).
  HTTP API: GET /health, GET /api/model, POST /api/analyze (raw bytes, application/octet-stream, at most
  32 MB = 32,000,000 bytes; two uploads at a time), POST /api/rule/validate ({"text": rule}), GET /openapi.json.
  Binds 127.0.0.1:${DEFAULT_PORT}; a non-loopback host needs --allow-remote (the API has no authentication).
  History is kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory.
  --enable-docs     serve interactive documentation at /docs/ (off by default; /redoc is never served)`,
  demo: `petriage demo [--seed S]
  Builds one synthetic sample per family and two benign ones (seed default 2024, never used in training),
  analyses each with the shipped model and prints a summary, then one full result with its rule.`,
};
