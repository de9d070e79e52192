# ruleid: py_dynamic_import_os
__import__('os').system(cmd)
# ok: py_dynamic_import_os
module = importlib.import_module(name)
# ok: py_dynamic_import_os
plugin = __import__(name)
