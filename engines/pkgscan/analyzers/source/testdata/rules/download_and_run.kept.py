import os
import stat
import subprocess
import urllib.request


def install_tool(name, dest):
    with urllib.request.urlopen("https://releases.example/" + name) as r:
        with open(dest, "wb") as fh:
            fh.write(r.read())
    # ok: download_and_run
    os.chmod(dest, os.stat(dest).st_mode | stat.S_IXUSR)


def version(tool):
    return subprocess.check_output([tool, "--version"])
