# a build helper: each target's directory is joined to the project root the user gave, its command runs there
import os
import subprocess


def build(root, targets):
    for t in targets:
        # ok: remote_shell_directory
        where = os.path.abspath(os.path.join(root, t["dir"]))
        subprocess.run(t["cmd"], shell=True, cwd=where, check=True)
    return os.listdir(root)
