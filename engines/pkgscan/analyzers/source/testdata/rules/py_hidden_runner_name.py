import base64
import binascii
import builtins
import codecs

_b = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__
# ruleid: py_hidden_runner_name
run = _b[bytes.fromhex("65786563").decode()]
# ruleid: py_hidden_runner_name
imp = eval("\x5f\x5f\x69\x6d\x70\x6f\x72\x74\x5f\x5f")
# ruleid: py_hidden_runner_name
name = "".join(map(chr, (101, 120, 101, 99)))
# ok: py_hidden_runner_name
digest = binascii.hexlify(b"exec").decode()
# ok: py_hidden_runner_name
runner = getattr(builtins, "exec")
