hidden = load()
# ruleid: py_exec_decoded
exec(hidden[::-1])
