import importlib, requests
# a dataset downloaded and a plugin imported by name, with no module file named: not fetched code
def fetch(url, dest):
    with open(dest, 'wb') as f:
        # ok: py_imports_fetched_module
        f.write(requests.get(url, timeout=30).content)
def plugin(name):
    return importlib.import_module('probe_pkg.plugins.' + name)
