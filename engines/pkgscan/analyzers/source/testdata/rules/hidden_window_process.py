import subprocess
# ruleid: hidden_window_process
subprocess.Popen(cmd, creationflags=CREATE_NO_WINDOW)
# ruleid: hidden_window_process
subprocess.Popen(cmd, creationflags=0x00000008)
# ok: hidden_window_process
subprocess.Popen(cmd, cwd=root)
