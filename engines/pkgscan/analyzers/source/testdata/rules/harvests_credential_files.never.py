import tarfile
from pathlib import Path

DEFAULT_FILES = [".ssh/config", ".gitconfig", ".zshrc", ".bashrc"]
# ok: harvests_credential_files
# ok: reads_credential_files
NEVER = ("id_rsa", "id_ed25519", "id_ecdsa", "credentials", ".npmrc", ".netrc", ".git-credentials")


def snapshot(home, target):
    with tarfile.open(target, "w:gz") as tar:
        for rel in DEFAULT_FILES:
            if not any(part.startswith(n) for part in Path(rel).parts for n in NEVER):
                tar.add(home / rel, arcname=rel)
                open(home / rel).close()
