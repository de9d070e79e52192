import base64, zlib
# ruleid: py_exec_decoded
exec(base64.b64decode(blob))
payload = zlib.decompress(data)
# ruleid: py_exec_decoded
exec(payload)
# ok: py_exec_decoded
exec(compile(source, path, 'exec'))
