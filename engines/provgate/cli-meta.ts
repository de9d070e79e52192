// What `provgate --help` and `--version` need, in a module that imports nothing of the engine: the command line loads
// this (and ../core/cli.js) to answer them; the gate, keys, stores, server and jobs load when a command runs
// (./cli-commands.js).
import type { ScenarioName } from '../core/contracts/provgate.js';

export const VERSION = '0.1.0';

export const DEFAULT_PORT = 8720;

/** The synthetic scenarios `synth`, `demo` and POST /v1/demo/{scenario} know. */
export const SCENARIOS = ['clean', 'malicious-dep', 'cve-origin', 'unreachable', 'tampered', 'unsigned-missing'] as const satisfies readonly ScenarioName[];

export const HELP = `provgate ${VERSION}: a provenance gate over signed pipeline stage events (commit, build, scan, sast)

Usage:
  provgate keygen PREFIX                 Ed25519 key pair: PREFIX.key (private, mode 0600) and PREFIX.pub
  provgate sign STAGE PAYLOAD.json -o OUT [--run-id ID] [--layout dsse|gate]
                                         sign one stage payload (commit, build, scan or sast)
  provgate verify EVENTS [--demo] [--lenient]
                                         check every envelope's signature and payload; exit 1 if any is rejected
  provgate ingest [--sbom F [--cyclonedx]] [--scanner F]... [--sarif F]... --commit SHA -o OUT
                  [--build-id ID] [--run-id ID] [--layout dsse|gate]
                                         sign unmodified tool output (syft JSON or CycloneDX; Trivy or Grype JSON; SARIF 2.1.0)
  provgate gate EVENTS [--comment] [--demo] [--lenient] [--advisories OSV.zip|DIR] [--top-pypi]
                [--reach-repo DIR --reach-src PATH... [--reach-manifest FILE]]
                                         the decision as JSON (or a Markdown PR comment); exit 1 on block
  provgate backtrack EVENTS QUERY [--demo]  origin stories of a CVE id, finding id or package name
  provgate blast EVENTS LAYER_PREFIX [--demo]
                                         images, services and containers inheriting a layer
  provgate lineage REPO MANIFEST [--limit N] -o OUT
                                         signed commit events from the manifest's first-parent git history
  provgate merge IN... -o OUT            concatenate envelope files
  provgate export EVENTS --format json|cypher|opa|intoto [--demo]
  provgate synth SCENARIO OUT            write a signed synthetic scenario: ${SCENARIOS.join(', ')}
  provgate demo                          run every scenario and check its verdict
  provgate bench [--services N] [--deps M]
                                         synthetic scale check (N services with M packages each): times, memory
  provgate serve [--host H] [--port P] [--allow-remote] [--demo]
                                         HTTP API: GET /healthz, POST /v1/gate, POST /v1/demo/{scenario}, GET /v1/runs...
  provgate --version | --help

Keys: signing uses GATE_SIGNING_KEY (Ed25519 PEM, or the path of one) under GATE_KEYID, else the public HMAC
demo key. The gate trusts GATE_PUBKEY (Ed25519 PEM or path) under GATE_KEYID (default: the key's id) and nothing
else; --demo also trusts the public demo key (demos only). Without a trusted key, commands that verify refuse to run.
serve also trusts the active keys of its store (added in the Lineage workspace or POST /v1/keys) and starts without
any trusted key (the gate answers 503 until one is added); a GATE_PUBKEY it cannot use is reported, not fatal.
--top-pypi checks PyPI dependencies for typosquats against $VITRINE_TOP_PYPI, else the shipped\nresources/core/popular/pypi.txt (14,985 most-downloaded PyPI names, in rank order).
Exit codes: 0 success, 1 block (gate), rejected envelopes (verify) or a failed demo, 2 invalid arguments or input,
or a failure (a full disk says "no space left ..."; an output file is written whole or not at all).`;
