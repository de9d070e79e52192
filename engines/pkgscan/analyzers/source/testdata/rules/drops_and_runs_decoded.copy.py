# An installer that copies a shipped helper script, marks it executable and runs it once: nothing is decoded.
import os
import shutil
import subprocess


def install(src, folder):
    helper = os.path.join(folder, "setup-helper")
    shutil.copy(src, helper)
    with open(helper + ".stamp", "w") as fh:
        fh.write("ok")
    # ok: drops_and_runs_decoded
    os.chmod(helper, 0o755)
    subprocess.run([helper, "--setup"], check=True)
