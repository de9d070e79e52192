# setup.py reading its version with exec, and a docs link to an example script: no download is run.
from setuptools import setup
EXAMPLE = "https://github.com/example/pkg/blob/main/examples/run.py"
about = {}
# ok: py_execs_downloaded_file
with open("pkg/__version__.py") as f:
    exec(f.read(), about)
setup(name="pkg", version=about["__version__"])
