# ruleid: py_exec_decoded
exec(''.join(map(chr, [105, 109, 112, 111, 114, 116])))
# ruleid: py_exec_decoded
exec(''.join(chr(c) for c in codes))
# ruleid: py_exec_decoded
exec(bytes([105, 109, 112, 111, 114, 116]).decode())
letters = ''.join(map(chr, range(97, 123)))
# ok: py_exec_decoded
print(letters)
