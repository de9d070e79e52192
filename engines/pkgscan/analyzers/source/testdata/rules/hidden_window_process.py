import subprocess
# ruleid: hidden_window_process
subprocess.Popen(cmd, creationflags=CREATE_NO_WINDOW)
# ok: hidden_window_process
subprocess.Popen(cmd, cwd=root)
