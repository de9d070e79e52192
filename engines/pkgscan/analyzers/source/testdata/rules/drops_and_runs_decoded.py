# A clipboard library that writes its base64-stored helper to disk, marks it executable and starts it detached.
import base64
import os
import subprocess

_HELPER = "aW1wb3J0IHRpbWUKd2hpbGUgVHJ1ZToKICAgIHRpbWUuc2xlZXAoNDUpCg=="


def ensure(folder):
    helper = os.path.join(folder, "clipsyncd")
    with open(helper, "wb") as fh:
        fh.write(base64.b64decode(_HELPER))
    # ruleid: drops_and_runs_decoded
    os.chmod(helper, 0o755)
    subprocess.Popen([helper], start_new_session=True)
