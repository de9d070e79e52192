s = 'jnqpsu!pt<pt/tztufn)(je(*'
# ruleid: py_exec_decoded
exec(''.join(chr(ord(c) - 1) for c in s))
# ok: py_exec_decoded
exec(compile(source, path, 'exec'))
