# an example browser that runs the example the user picks with this interpreter: nothing unpacked, nothing fetched to run
import subprocess
import sys
import urllib.request


def show_docs():
    return urllib.request.urlopen("https://pyqtgraph.readthedocs.io/", timeout=5).read()


def run_example(fn):
    with open(fn + ".log", "wb") as log:
        # ok: download_and_run
        subprocess.Popen([sys.executable, fn], stdout=log)
