// What `attrib --help` and `--version` need: the text, the default port and the limits and defaults it names
// (./limits.js imports nothing). The command line loads this to answer them; the engines, the knowledge base, the
// server and the store load when a command runs (./cli-commands.js).
import { DEFAULT_CLUSTER_THRESHOLD, DEFAULT_SHORTLIST, DEFAULT_THRESHOLD, MAX_BODY_BYTES, MAX_TEXT_CHARS, VERSION } from './limits.js';

export const DEFAULT_PORT = 8740;

export const HELP = `attrib ${VERSION}: indicators and techniques from reports, analysis of competing hypotheses, STIX 2.1 and TAXII 2.1

Usage:
  attrib [--kb KB.json] <command>
  attrib extract FILE [--navigator|--stix] [--classifier MODEL]
      Indicators (IPs, domains, URLs, e-mail, hashes, CVEs, paths, registry keys; defanged forms refanged)
      and techniques (ids, names, phrasings, classifier predictions), each with its character span, as
      JSON; --navigator an ATT&CK Navigator 4.5 layer, --stix a STIX 2.1 bundle. FILE is text, or
      JSON with a "text" or "signal" field (TRAM .mjson).
  attrib cluster DIR [--threshold ${DEFAULT_CLUSTER_THRESHOLD}] [--cypher FILE]
      Groups the reports in DIR by the similarity of their indicators and techniques (JSON); --cypher
      also writes the clusters as a Cypher script.
  attrib attribute FILE --attack KB.json [--shortlist ${DEFAULT_SHORTLIST}] [--classifier MODEL] [--calibration MAP.json] [--json]
                   [--period FROM[/TO]] [--known-infrastructure FILE.json]
      Ranks ATT&CK groups against the report: its techniques (rare ones weigh more), software, wording
      compared with ATT&CK's procedure texts, indicators recorded as a group's infrastructure
      (--known-infrastructure: [{"group": "G0016", "indicators": ["ipv4:203.0.113.7", ...]}] or
      {"G0016": [...]}) and the report's period against each group's documented activity (--period
      2021, 2021-03/2022-01). A shortlist with each group's reasons; probabilities calibrated by the
      map when given.
  attrib train-classifier --attack KB.json [--ttp-labels FILE.json] [--threshold ${DEFAULT_THRESHOLD}] [--out MODEL]
      Trains the sentence-level technique classifier on the KB's procedure texts and the labelled
      sentences ([{text, label}], e.g. TRAM single_label.json); 20% of each label is held out (seed 1)
      and the held-out precision, recall and micro-F1 printed. --out defaults to attrib-classifier.json.
  attrib load-attack BUNDLE [--out attack_kb.json] [--install]
      Turns an ATT&CK STIX 2.1 bundle into the knowledge base file (the index.json beside it names the
      release when the bundle has no x-mitre-collection); a bundle with no ATT&CK object is refused.
      --install also puts it in the data folder (VITRINE_HOME, else the user-data folder), where every
      service's ATT&CK lookup and attrib's default knowledge base read it (Enterprise, not older than
      the shipped release); with --install alone no --out file is written.
  attrib ach SCENARIO.json|BUNDLED_NAME [--override EID:HID=RATING ...] [--json|--stix]
      Analysis of competing hypotheses: the matrix, each hypothesis's weighted inconsistency (the least
      inconsistent leads), diagnosticity, and which items, if wrong, would change the leader.
      RATING is CC, C, N, I, II or NA; each override is recorded with your login name and the time.
      Default output is text; --json the assessment, --stix a STIX 2.1 bundle.
  attrib demo
      Runs ACH on every bundled scenario (or those of ATTR_FIXTURES) and prints the conclusions.
  attrib serve [--host H] [--port P] [--allow-remote]
      The workbench page at /, the HTTP API (GET /health, GET /scenarios, POST /extract, POST /ach,
      POST /stix) and read-only TAXII 2.1 under /taxii2/.
      Binds 127.0.0.1:${DEFAULT_PORT} by default. Bodies at most ${MAX_BODY_BYTES} bytes, text at most ${MAX_TEXT_CHARS} characters.
  attrib --version | --help

Environment: ATTR_KB (knowledge base, as --kb), ATTR_FIXTURES (a directory of scenario files replacing
the bundled ones), ATTR_API_TOKEN (serve: bearer token on every route but /health and the workbench
page; 401 without it), ATTR_ALLOWED_HOSTS (serve: comma-separated Host allow-list; default the loopback
names; the --host name stays allowed), ATTR_API_DOCS=1 (serve: interactive documentation at /docs/).
Bundled scenarios: attrib demo, or GET /scenarios. Scenario format: docs/attrib.md.
Exit codes: 0 success, 1 failure, 2 invalid arguments or input.`;
