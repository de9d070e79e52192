# A raw stream connection to a bare public address, and the datagram trick that finds the host's own address.
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
# ruleid: url_with_ip_address
s.connect(('203.0.113.77', 9009))
# ruleid: url_with_ip_address
c = socket.create_connection(("198.51.100.4", 443), timeout=5)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# ok: url_with_ip_address
u.connect(('203.0.113.1', 80))
# ok: url_with_ip_address
u.connect(("10.255.255.255", 1))
