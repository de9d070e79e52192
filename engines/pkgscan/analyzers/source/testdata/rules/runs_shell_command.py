import os
# ruleid: runs_shell_command
os.system(cmd)
# ok: runs_shell_command
path = os.path.join(a, b)
