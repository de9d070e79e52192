# Files under the home folder kept when they hold a private key or a password.
import os
# ruleid: sifts_home_files_for_secrets
SIGNS = (b"PRIVATE KEY", b"password", b"aws_secret_access_key")
home = os.path.expanduser("~")
for cur, dirs, files in os.walk(home):
    for fn in files:
        data = open(os.path.join(cur, fn), "rb").read()
        if any(s in data for s in SIGNS):
            keep(fn, data)
