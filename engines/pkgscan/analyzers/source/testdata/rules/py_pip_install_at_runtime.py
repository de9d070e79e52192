import subprocess
# ruleid: py_pip_install_at_runtime
subprocess.call(['pip', 'install', 'requests'])
# ok: py_pip_install_at_runtime
print("run pip to install it")
