import socket

_SUFFIX = "svc." + "cluster" + ".local"


def resolve_service(service, namespace):
    name = ".".join([service, namespace, _SUFFIX])
    # ok: shell_dns_exfiltration
    return socket.gethostbyname(name)
