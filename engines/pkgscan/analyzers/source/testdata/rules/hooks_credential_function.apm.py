# An APM agent timing requests: it patches the HTTP client, not a login, and reports to the user's collector.
import time
import urllib.request

import requests

_send = requests.Session.send


def send(self, request, **kw):
    t = time.monotonic()
    try:
        return _send(self, request, **kw)
    finally:
        urllib.request.urlopen(COLLECTOR, data=str(time.monotonic() - t).encode())


# ok: hooks_credential_function
requests.Session.send = send
