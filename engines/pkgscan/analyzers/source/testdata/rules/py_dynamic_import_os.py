# ruleid: py_dynamic_import_os
__import__('os').system(cmd)
# ok: py_dynamic_import_os
module = importlib.import_module(name)
# ok: py_dynamic_import_os
plugin = __import__(name)
# ok: py_dynamic_import_os
long_description = open('README.md').read() if __import__("os").path.exists('README.md') else ''
# ruleid: py_dynamic_import_os
__import__('os').popen('id').read()
