"""A tool module. Install its extras with: pip install sample[cli]"""
import os
import subprocess
import sys

try:
    import colorama
except ImportError:
    # ruleid: py_installs_undeclared_at_import
    os.system('pip install --upgrade colorama')

for pkg in ['requests', 'pycryptodome']:
    try:
        __import__(pkg)
    except ImportError:
        # ruleid: py_installs_undeclared_at_import
        subprocess.Popen(f"{sys.executable} -m pip install {pkg}", shell=True)

# the package upgrading itself names its own release
# ok: py_installs_undeclared_at_import
os.system('pip install --upgrade sample')


def ensure(name):
    # a helper the user calls: not import time
    # ok: py_installs_undeclared_at_import
    subprocess.check_call([sys.executable, '-m', 'pip', 'install', name])
