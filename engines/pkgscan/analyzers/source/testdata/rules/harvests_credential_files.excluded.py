# A backup tool's exclusions name the credential files to keep them out of the archive.
import os, tarfile
def build(root, out_path, include_secrets=False):
    excludes = [".cache/*"]
    if not include_secrets:
        # ok: harvests_credential_files
        excludes += [".ssh/*", ".aws/*", ".docker/config.json", ".netrc", ".pypirc", ".npmrc"]
    with tarfile.open(out_path, "w:gz") as tar:
        tar.add(root)
