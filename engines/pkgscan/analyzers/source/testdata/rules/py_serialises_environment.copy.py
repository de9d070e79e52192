# A copy of the environment under a name, serialised further down.
import json, os, subprocess
# ruleid: py_serialises_environment
snapshot = {**os.environ}
body = json.dumps(snapshot)
# ok: py_serialises_environment
env = {**os.environ, "LC_ALL": "C"}
subprocess.run(["make"], env=env)
