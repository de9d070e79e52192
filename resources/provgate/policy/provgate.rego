# The provenance gate's policy in Rego, mirroring engines/provgate/policy.ts rule for rule over the
# `provgate export --format opa` document; engines/provgate/opa.test.ts checks parity where `opa` is installed.
package provgate

import rego.v1

scanners := {"trivy", "grype", "osv"}

malicious_sources := {"scorer", "osv-malicious"}

severe(s) if s in {"high", "critical"}

# provenance_integrity: every rejected envelope, and required stages without a verified event.
reasons contains {"rule": "provenance_integrity", "verdict": "block", "id": sprintf("rejected-%d", [i])} if {
	some i, _ in input.rejected
}

reasons contains {"rule": "provenance_integrity", "verdict": "block", "id": "missing-stages"} if {
	count(input.missingStages) > 0
}

# malicious_dependency: a dependency flagged as malicious.
reasons contains {"rule": "malicious_dependency", "verdict": "block", "id": f.id} if {
	some f in input.findings
	f.source in malicious_sources
}

# vulnerable_dependency: a reachable (or not shown unreachable) high or critical finding blocks; any other warns.
vulnerable_blocks(f) if {
	severe(f.severity)
	f.reachable != false
}

reasons contains {"rule": "vulnerable_dependency", "verdict": "block", "id": f.id} if {
	some f in input.findings
	f.source in scanners
	vulnerable_blocks(f)
}

reasons contains {"rule": "vulnerable_dependency", "verdict": "warn", "id": f.id} if {
	some f in input.findings
	f.source in scanners
	not vulnerable_blocks(f)
}

# unattributed_finding: a scanner finding that matches no SBOM node.
reasons contains {"rule": "unattributed_finding", "verdict": "block", "id": u.id} if {
	some u in input.unattributed
	u.source in scanners
	severe(u.severity)
}

reasons contains {"rule": "unattributed_finding", "verdict": "warn", "id": u.id} if {
	some u in input.unattributed
	u.source in scanners
	not severe(u.severity)
}

# sast: every analysis finding, its verdict by severity.
sast_verdict(s) := "block" if severe(s)

sast_verdict(s) := "warn" if s == "medium"

sast_verdict(s) := "pass" if s == "low"

reasons contains {"rule": "sast", "verdict": v, "id": f.id} if {
	some f in input.findings
	f.source == "sast"
	v := sast_verdict(f.severity)
}

# The strictest verdict of any reason.
verdict := "block" if {
	some r in reasons
	r.verdict == "block"
} else := "warn" if {
	some r in reasons
	r.verdict == "warn"
} else := "pass"

decision := {"verdict": verdict, "reasons": reasons}
