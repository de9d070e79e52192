# Several tools' credential files listed as pathlib joins, each read.
from pathlib import Path

home = Path.home()
# ruleid: harvests_credential_files
PICKS = [home / ".ssh", home / ".aws" / "credentials", home / ".config" / "gh" / "hosts.yml", home / ".netrc"]
# ok: harvests_credential_files
CONFIG = [home / ".config" / "mytool" / "settings.toml", home / ".cache" / "mytool"]


def read_all():
    return {str(p): p.read_text() for p in PICKS if p.is_file()}
