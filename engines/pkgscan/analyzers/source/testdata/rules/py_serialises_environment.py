import json, os
# ruleid: py_serialises_environment
data = json.dumps(dict(os.environ))
# ok: py_serialises_environment
home = os.environ.get('HOME')
