import base64, pickle, requests
# ruleid: py_exec_decoded
obj = pickle.loads(requests.get(URL).content)
# ok: py_exec_decoded
obj = pickle.loads(base64.b64decode(blob))
