from pathlib import Path

HOME = Path.home()


def collect():
    return read_all([
        # ruleid: harvests_credential_files
        HOME / ".aws" / "credentials",
        HOME / ".config" / "gcloud" / "application_default_credentials.json",
        HOME / ".azure" / "msal_token_cache.json",
    ])


def read_all(paths):
    return {str(p): p.read_text() for p in paths if p.is_file()}
