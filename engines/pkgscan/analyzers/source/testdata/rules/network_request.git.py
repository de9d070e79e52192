# A git push run from code sends a folder's contents to a remote.
import shutil, subprocess
git = shutil.which("git")
# ruleid: network_request
subprocess.run([git, "push", "-q", "-f", REMOTE, "HEAD:main"], cwd=work)
# ok: network_request
subprocess.run([git, "status", "--short"], cwd=work)
