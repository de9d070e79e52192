# the code runners fetched from the builtins table by name, or a name written only in escapes
# ruleid: py_dynamic_import_os
vars(__builtins__)['exec'](payload)
# ruleid: py_dynamic_import_os
runner = vars(globals()['__builtins__']).get('compile')
# ruleid: py_dynamic_import_os
zipper = __import__("\x7a\x6c\x69\x62")
# ok: py_dynamic_import_os
local_names = sorted(vars(config).keys())
# ok: py_dynamic_import_os
banner = globals()["__doc__"]
