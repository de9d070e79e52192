import base64
import binascii
import builtins
import codecs

_b = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__
# ruleid: py_hidden_runner_name
word = base64.b64decode("ZXhlYw==").decode()
# ruleid: py_hidden_runner_name
other = codecs.decode("rkrp", "rot13")
# ruleid: py_hidden_runner_name
turned = getattr(builtins, "cexe"[::-1])
# ok: py_hidden_runner_name
colour = (101, 120, 101)
# ok: py_hidden_runner_name
label = "".join(chr(c) for c in (72, 105))
