import base64
import binascii
import builtins
import codecs

_b = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__
# ruleid: py_hidden_runner_name
exec("".join(chr(int(b) - 7) for b in PAYLOAD.split("_")))
