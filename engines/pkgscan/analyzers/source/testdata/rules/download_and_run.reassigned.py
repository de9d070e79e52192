# A downloaded tool made executable and returned; the name is given another path before anything is started.
import os
import stat
import subprocess as sp
import urllib.request
def get_exe():
    exe = urllib.request.urlretrieve("https://github.com/imageio/imageio-binaries/raw/master/ffmpeg/linux64", "ffmpeg")[0]
    # ok: download_and_run
    os.chmod(exe, os.stat(exe).st_mode | stat.S_IEXEC)
    if os.path.isfile(exe):
        return exe
    exe = "ffmpeg"
    sp.check_call([exe, "-version"])
    return exe
