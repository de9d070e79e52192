# the environment copied whole (less a terminal setting) into a record to send; a child's environment built the same
# way is not a record's value
import os
import subprocess

row = {
    "host": "h",
    # ruleid: py_serialises_environment
    "env": {k: v for k, v in os.environ.items() if not k.startswith(("LS_COLORS", "TERM"))},
}
# ok: py_serialises_environment
child_env = {k: v for k, v in os.environ.items() if not k.startswith("npm_")}
subprocess.run(["make"], env=child_env)
