# a setup.py hook leaving a process running after pip ends; a server's own start waits for its child
import os
import subprocess
import sys

flags = {"start_new_session": True} if os.name == "posix" else {"creationflags": 0x00000008}


def prefetch(here):
    # ruleid: py_detached_spawn
    subprocess.Popen([sys.executable, os.path.join(here, "_prefetch.py")], stdout=subprocess.DEVNULL, start_new_session=True)


def build():
    # ok: py_detached_spawn
    subprocess.run([sys.executable, "-m", "build"], check=True)
