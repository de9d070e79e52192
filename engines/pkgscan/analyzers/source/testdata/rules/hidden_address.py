import socket
# ruleid: hidden_address
_h = ["smtp", "mailfwd-relay", "net"]
HOST = ".".join(_h)
# ruleid: hidden_address
SINK = (".".join(map(str, [203, 0, 113, 200])), 5353)
# ruleid: hidden_address
_PEER = ".".join(("203", "0", "113", "9"))
# ruleid: hidden_address
_A = (198, 51, 100, 140)
ADDRESS = (".".join(str(o) for o in _A), 5140)
# ruleid: hidden_address
_HOST = "-".join(["broker", "qn7x"]) + ".hivelane.cloud"
# ruleid: hidden_address
_ZONE = "ved.epip-ovxek.yaler"[::-1]
# ok: hidden_address
__version__ = ".".join(map(str, (1, 4, 2)))
# ok: hidden_address
NAME = "-".join(["scratch", "pool"])
# ok: hidden_address
PATH = "/".join(["docs", "index.md"])
