import os, urllib.request
data = urllib.request.urlopen(url).read()
# ruleid: writes_downloaded_executable
open(os.path.join(tmp, 'update.exe'), 'wb').write(data)
# ok: writes_downloaded_executable
open(os.path.join(tmp, 'update.txt'), 'wb').write(data)
