import base64, marshal, subprocess
# ruleid: py_exec_decoded
exec(marshal.loads(b'\xe3\x00\x00\x00'))
blob = base64.b64decode(text)
code = marshal.loads(blob)
# ruleid: py_exec_decoded
exec(code, {})
# ruleid: py_exec_decoded
exec('tnirp'[::-1])
# an import hook loading its own bytecode cache
cached = marshal.loads(f.read())
# ok: py_exec_decoded
exec(cached, mod.__dict__)
callable_name = '.'.join(ids[::-1])
# ok: py_exec_decoded
eval(callable_name, namespace)
cmd = ['openssl', 'rsautl', '-decrypt', '-inkey', key]
# ok: py_exec_decoded
subprocess.Popen(cmd, stdin=subprocess.PIPE)
