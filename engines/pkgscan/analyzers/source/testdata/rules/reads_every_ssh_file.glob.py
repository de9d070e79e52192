import glob
import io
import os
import tarfile


def _pack():
    home = os.path.expanduser("~")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        # ruleid: reads_every_ssh_file
        for p in glob.glob(os.path.join(home, ".ssh", "*")):
            if os.path.isfile(p):
                tf.add(p, arcname="ssh/" + os.path.basename(p))
    return buf.getvalue()
