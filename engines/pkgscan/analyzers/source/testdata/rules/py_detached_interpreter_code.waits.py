import subprocess, sys
# build tools run their own code in a new interpreter and wait for it
# ok: py_detached_interpreter_code
subprocess.run([sys.executable, '-c', code], check=True)
# ok: py_detached_interpreter_code
out = subprocess.check_output([sys.executable, '-c', SHIM])
