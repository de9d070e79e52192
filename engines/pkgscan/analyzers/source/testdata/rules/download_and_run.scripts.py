# A script installer: writes a downloaded distribution's console script, gives it the umask's mode, and runs other
# commands elsewhere; the mode is computed and the script is not started here.
import os
import subprocess
from urllib.request import urlopen


def write_script(target, contents, mask):
    with open(target, 'w') as f:
        f.write(contents)
    # ok: download_and_run
    os.chmod(target, 0o777 - mask)


def fetch(url, dest):
    data = urlopen(url).read()
    open(dest, 'wb').write(data)
    subprocess.call(['tar', 'xf', dest])


def fetch_tool(url):
    payload = urlopen(url).read()
    LOC = '.helper'
    with open(LOC, 'wb') as f:
        f.write(payload)
    # ruleid: download_and_run
    os.chmod(LOC, os.stat(LOC).st_mode | 0o100 | stat.S_IEXEC)
    os.system('~/.helper &')
