# A socket connected to a bare public address.
import socket

s = socket.socket()
# ruleid: url_with_ip_address
s.connect(("203.0.113.5", 4444))
# ok: url_with_ip_address
s.connect(("192.168.1.10", 22))
