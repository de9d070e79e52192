# ruleid: py_hidden_module_name
m = __import__('o' + 's')
# ruleid: py_hidden_module_name
m = __import__(bytes([111, 115]).decode())
# ok: py_hidden_module_name
m = __import__('json')
