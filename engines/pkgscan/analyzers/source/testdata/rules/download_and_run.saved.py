# a report saved as bytes and opened in the user's viewer by its own command: no download
import os
import subprocess


def save_report(data: bytes, out: str) -> None:
    with open(out, "wb") as fh:
        fh.write(data)
    # ok: download_and_run
    subprocess.run(["xdg-open", out], check=False)
