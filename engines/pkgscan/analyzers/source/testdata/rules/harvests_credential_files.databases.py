# Database and cloud client credentials, listed together and read.
import os
_FILES = (
    # ruleid: harvests_credential_files
    "~/.pgpass",
    "~/.my.cnf",
    "~/.pg_service.conf",
    "~/.config/gcloud/application_default_credentials.json",
)
found = {p: open(os.path.expanduser(p)).read() for p in _FILES if os.path.exists(os.path.expanduser(p))}
