import gzip, base64, runpy, tempfile, os
fd, p = tempfile.mkstemp(suffix=".py")
with os.fdopen(fd, "wb") as f:
    f.write(gzip.decompress(base64.a85decode(_D)))
# ruleid: py_runs_decoded_file
runpy.run_path(p, run_name="__x__")
