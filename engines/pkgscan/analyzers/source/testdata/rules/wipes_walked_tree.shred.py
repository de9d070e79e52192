# A secure-delete tool overwrites the files of the folder its user names.
import os
import sys
def shred_tree(target):
    for dirpath, _dirs, files in os.walk(target):
        for fn in files:
            p = os.path.join(dirpath, fn)
            # ok: wipes_walked_tree
            with open(p, "r+b") as fh:
                fh.write(os.urandom(os.path.getsize(p)))
            os.remove(p)
shred_tree(sys.argv[1])
