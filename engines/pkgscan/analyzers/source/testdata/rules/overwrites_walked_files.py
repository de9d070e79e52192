# The home folder walked and each file overwritten with a constant.
import os
MSG = b"peace"
# ruleid: overwrites_walked_files
for cur, dirs, files in os.walk(os.path.expanduser("~")):
    for fn in files:
        open(os.path.join(cur, fn), "wb").write(MSG)
