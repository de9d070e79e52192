# The decoded text given a name before it is written, then run from its file.
import base64, os, runpy, tempfile, zlib
src = zlib.decompress(base64.b64decode(BLOB))
fd, path = tempfile.mkstemp(suffix=".py")
with os.fdopen(fd, "wb") as fh:
    fh.write(src)
# ruleid: py_runs_decoded_file
runpy.run_path(path)
