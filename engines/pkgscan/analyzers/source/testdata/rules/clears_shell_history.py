import os
# ruleid: clears_shell_history
os.remove(os.path.expanduser("~/.bash_history"))
