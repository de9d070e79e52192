import stat
import subprocess
import urllib.request
from pathlib import Path


class Bootstrapper:
    def fetch(self, url: str, exe: Path) -> Path:
        with urllib.request.urlopen(url) as resp:
            exe.write_bytes(resp.read())
        # ruleid: download_and_run
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
        return exe

    def run(self, exe: Path) -> int:
        return subprocess.Popen([str(exe), "--serve"]).pid


def keep(cache: Path) -> None:
    # ok: download_and_run
    cache.chmod(0o700)
