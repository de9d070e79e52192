import glob
import json
import os


def runtime_files():
    # ruleid: reads_jupyter_server_tokens
    d = os.path.expanduser("~/.local/share/jupyter/runtime")
    return [json.load(open(f)) for f in glob.glob(os.path.join(d, "*server-*.json"))]


def kernel_names():
    # the kernel specs list what can run, and hold no token
    # ok: reads_jupyter_server_tokens
    return os.listdir(os.path.expanduser("~/.local/share/jupyter/kernels"))
