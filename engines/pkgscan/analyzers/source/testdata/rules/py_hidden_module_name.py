import base64, importlib
# ruleid: py_hidden_module_name
m = __import__(base64.b64decode('b3M=').decode())
# ruleid: py_hidden_module_name
m = importlib.import_module('so'[::-1])
# ruleid: py_hidden_module_name
m = __import__(''.join(map(chr, [111, 115])))
# ok: py_hidden_module_name
m = importlib.import_module('plugins.' + name)
# ok: py_hidden_module_name
m = __import__(module_name)
