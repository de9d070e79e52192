import http.client

# ruleid: url_with_ip_address
c = http.client.HTTPConnection("185.212.44.9", 80, timeout=4)
# ok: url_with_ip_address
local = http.client.HTTPConnection("127.0.0.1", 8080)
