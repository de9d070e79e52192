import base64, builtins
run = eval
# ruleid: py_exec_decoded
run(base64.b64decode(blob).decode())
x = getattr(builtins, 'exec')
# ruleid: py_exec_decoded
x(base64.b64decode(blob))
# ruleid: py_exec_decoded
getattr(builtins, 'ex' + 'ec')(base64.b64decode(blob))
evaluate = eval
# ok: py_exec_decoded
evaluate(expression, namespace)
runner = exec_command
# ok: py_exec_decoded
runner(base64.b64decode(blob))
