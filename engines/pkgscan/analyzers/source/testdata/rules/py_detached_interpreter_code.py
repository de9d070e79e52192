import subprocess, sys
CODE = open(DATA).read()
# ruleid: py_detached_interpreter_code
subprocess.Popen([sys.executable, '-c', CODE], creationflags=0x00000008, stdout=subprocess.DEVNULL)
# ruleid: py_detached_interpreter_code
subprocess.Popen(['nohup', 'python3', '-c', payload], start_new_session=True)
# ok: py_detached_interpreter_code
subprocess.Popen([sys.executable, '-c', 'import setuptools'], start_new_session=True)
# ok: py_detached_interpreter_code
child = Popen([sys.executable, "-c", f"from {__name__} import _child; _child()"], start_new_session=True)
