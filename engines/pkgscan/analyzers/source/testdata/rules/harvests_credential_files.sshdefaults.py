# An SSH library's default identities (one tool's files) are not a stealer's list; SSH keys among other tools' are.
import os
# ok: harvests_credential_files
DEFAULT_KEYS = ["~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.ssh/id_rsa"]
def load_key():
    for k in DEFAULT_KEYS:
        p = os.path.expanduser(k)
        if os.path.exists(p):
            return open(p).read()
# ruleid: harvests_credential_files
STEAL = ["~/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.npmrc"]
