# The same list in Python, one entry a line.
import os
_FILES = [
    # ruleid: harvests_credential_files
    "~/.git-credentials",
    "~/.config/gh/hosts.yml",
    "~/.docker/config.json",
    "~/.kube/config",
]
out = {p: open(os.path.expanduser(p)).read() for p in _FILES}
